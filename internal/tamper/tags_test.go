package tamper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTagged: a tag added to a test that ran is a skip when the project's
// runner leaves that tag out, and nothing otherwise.
func TestTagged(t *testing.T) {
	files := map[string]string{
		"java":   "src/test/java/shop/OrderTest.java",
		"python": "tests/test_order.py",
		"ruby":   "spec/order_spec.rb",
	}
	srcs := map[string]string{
		"java":   "class OrderTest {\n    @Test\n    void totals() {\n        assertEquals(6, Order.total(1, 2, 3));\n    }\n}\n",
		"python": "import pytest\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n",
		"ruby":   "RSpec.describe Order do\n  it \"totals\" do\n    expect(Order.total([1, 2, 3])).to eq(6)\n  end\nend\n",
	}
	tests := []struct {
		name, lang, config, file, old, new string
		deny                               bool
	}{
		{"surefire excludedGroups", "java", "pom.xml", "<project><build><plugins><plugin><configuration><excludedGroups>slow, integration</excludedGroups></configuration></plugin></plugins></build></project>",
			"    @Test\n    void totals", "    @Test\n    @Tag(\"slow\")\n    void totals", true},
		{"gradle excludeTags", "java", "build.gradle", "test {\n    useJUnitPlatform {\n        excludeTags 'flaky', 'slow'\n    }\n}\n",
			"    @Test\n    void totals", "    @Tag(\"flaky\")\n    @Test\n    void totals", true},
		{"gradle kts excludeCategories, JUnit 4 category", "java", "build.gradle.kts", "tasks.test {\n    useJUnit { excludeCategories(\"shop.Slow\") }\n}\n",
			"    @Test\n    void totals", "    @Test\n    @Category(Slow.class)\n    void totals", true},
		{"a tag the build runs", "java", "pom.xml", "<excludedGroups>slow</excludedGroups>",
			"    @Test\n    void totals", "    @Test\n    @Tag(\"fast\")\n    void totals", false},
		{"no build settings", "java", "", "",
			"    @Test\n    void totals", "    @Test\n    @Tag(\"slow\")\n    void totals", false},
		{"pytest addopts -m not slow", "python", "pytest.ini", "[pytest]\naddopts = -m \"not slow and not db\"\n",
			"def test_total", "@pytest.mark.db\ndef test_total", true},
		{"pyproject addopts", "python", "pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-ra -m 'not slow'\"\n",
			"def test_total", "@pytest.mark.slow\ndef test_total", true},
		{"pytest -m selecting slow", "python", "pytest.ini", "[pytest]\naddopts = -m slow\n",
			"def test_total", "@pytest.mark.slow\ndef test_total", false},
		{"a marker pytest runs", "python", "pytest.ini", "[pytest]\naddopts = -m \"not slow\"\n",
			"def test_total", "@pytest.mark.timeout(5)\ndef test_total", false},
		{".rspec --tag ~slow", "ruby", ".rspec", "--require spec_helper\n--tag ~slow\n",
			"  it \"totals\" do", "  it \"totals\", :slow do", true},
		{"spec_helper filter_run_excluding", "ruby", "spec/spec_helper.rb", "RSpec.configure do |config|\n  config.filter_run_excluding broken: true\nend\n",
			"  it \"totals\" do", "  it \"totals\", broken: true do", true},
		{"an rspec tag nothing leaves out", "ruby", ".rspec", "--tag ~slow\n",
			"  it \"totals\" do", "  it \"totals\", :db do", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.config != "" {
				p := filepath.Join(root, filepath.FromSlash(tc.config))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := srcs[tc.lang]
			if !strings.Contains(before, tc.old) {
				t.Fatalf("%q not in the source", tc.old)
			}
			after := strings.Replace(before, tc.old, tc.new, 1)
			f := Check(files[tc.lang], []byte(before), []byte(after), Options{Tool: "Edit", Excluded: func() map[string]string { return ExcludedTags(root) }})
			denied := f != nil && len(f.Problems) > 0
			if denied != tc.deny {
				reason := ""
				if f != nil {
					reason = f.Reason()
				}
				t.Fatalf("denied = %v, want %v (%s)", denied, tc.deny, reason)
			}
			if denied && (f.Problems[0].Kind != Skipped || !strings.Contains(f.Reason(), "leaves out of the run") || f.Level() != Critical) {
				t.Errorf("reason %q (kind %s, level %s), want a critical skip naming the setting", f.Reason(), f.Problems[0].Kind, f.Level())
			}
		})
	}
}
