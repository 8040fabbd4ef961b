package testscan

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// edit applies replacements to a sample, failing when one does not apply.
func edit(t *testing.T, path string, repl ...string) (before, after []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(s, repl[i]) {
			t.Fatalf("%s does not contain %q", path, repl[i])
		}
		s = strings.Replace(s, repl[i], repl[i+1], 1)
	}
	return src, []byte(s)
}

func scanBoth(t *testing.T, name string, before, after []byte) (*File, *File) {
	t.Helper()
	b, err := Scan(name, before)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Scan(name, after)
	if err != nil {
		t.Fatal(err)
	}
	return b, a
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		path string
		repl []string
		want Changes
	}{
		{
			name: "python tampering",
			path: "testdata/python/test_orders.py",
			repl: []string{
				// a skipped test deleted
				"@pytest.mark.skip(reason=\"refunds not implemented yet\")\ndef test_refund(order):\n    order.refund()\n    assert order.refunded\n", "",
				// an assertion made trivially true
				"    assert total(order) == expected\n", "    assert True\n",
				// a skip added
				"def test_add_item(order):", "@pytest.mark.skip\ndef test_add_item(order):",
				// a body emptied
				"    with pytest.raises(OrderError, match=\"qty\"):\n        order.add(\"apple\", qty=-1, price=Decimal(\"1\"))\n", "    pass\n",
			},
			want: Changes{
				Removed:    []string{"test_refund"},
				Skipped:    []string{"test_add_item"},
				Emptied:    []string{"test_negative_qty_raises"},
				Weakened:   []string{"test_totals", "test_negative_qty_raises"},
				Skips:      0, // one skipped test gone, one more skipped
				Assertions: -3,
				Trivial:    1,
			},
		},
		{
			name: "go subtest removed and skip added",
			path: "testdata/go/calc_test.go",
			repl: []string{
				"\tt.Run(\"exact\", func(t *testing.T) {\n\t\tgot, err := calc.Divide(6, 3)\n\t\trequire.NoError(t, err)\n\t\tassert.Equal(t, 2, got, \"6 / 3\")\n\t})\n", "",
				"func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tt.Skip(\"later\")\n",
				"\tif got != 5 {", "\tif got != got {",
			},
			want: Changes{
				Removed:    []string{"TestDivide/exact"},
				Skipped:    []string{"TestAdd"},
				Weakened:   []string{"TestAdd"},
				Skips:      1,
				Assertions: -3,
				Trivial:    1,
			},
		},
		{
			name: "js skip, trivial and rename",
			path: "testdata/js/cart.test.js",
			repl: []string{
				"  it('starts empty', () => {\n    expect(cart.total()).toBe(0);", "  it('starts empty', () => {\n    expect(true).toBe(true);",
				"it(\"increments qty for the same sku\"", "it.skip(\"increments qty for the same sku\"",
				"test('top level'", "test('top-level'",
			},
			want: Changes{
				Removed:    []string{"top level"},
				Added:      []string{"top-level"},
				Skipped:    []string{"Cart > add > increments qty for the same sku"},
				Weakened:   []string{"Cart > starts empty"},
				Skips:      1,
				Assertions: -1,
				Trivial:    1,
			},
		},
		{
			name: "rust ignore and emptied",
			path: "testdata/rust/parser.rs",
			repl: []string{
				"    #[test]\n    fn parses_numbers() {\n        assert_eq!(parse(\"42\").ok(), Some(42));\n        assert!(parse(\"x\").is_err());\n    }",
				"    #[test]\n    #[ignore]\n    fn parses_numbers() {}",
			},
			want: Changes{
				Skipped:    []string{"tests::parses_numbers"},
				Emptied:    []string{"tests::parses_numbers"},
				Weakened:   []string{"tests::parses_numbers"},
				Skips:      1,
				Assertions: -2,
			},
		},
		{
			name: "java disabled class",
			path: "testdata/java/AccountServiceTest.java",
			repl: []string{"@DisplayName(\"Account service\")\n", "@Disabled\n"},
			want: Changes{
				Skipped: []string{"AccountServiceTest.depositIncreasesBalance", "AccountServiceTest.withdrawTooMuch",
					"AccountServiceTest.addsAmounts", "AccountServiceTest.statementIsStable", "AccountServiceTest.onlyOnCi",
					"AccountServiceTest.trivial", "AccountServiceTest.empty", "AccountServiceTest.WhenFrozen.rejectsDeposits"},
				Skips: 8, // the conditional assume still counts on its own
			},
		},
		{
			name: "ruby legitimate fix",
			path: "testdata/ruby/invoice_spec.rb",
			repl: []string{"expect(invoice.total).to eq(15)", "expect(invoice.total).to eq(15)\n      expect(invoice.lines.size).to eq(2)"},
			want: Changes{Assertions: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, after := edit(t, tt.path, tt.repl...)
			b, a := scanBoth(t, tt.path, before, after)
			got := Diff(b, a)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Diff =\n%#v\nwant\n%#v", got, tt.want)
			}
			if s := got.Suspicious(); s != (tt.name != "ruby legitimate fix") {
				t.Errorf("Suspicious() = %v for %#v", s, got)
			}
			if same := Diff(b, b); same.Suspicious() || same.String() != "" {
				t.Errorf("Diff of a file with itself = %#v", same)
			}
		})
	}
}

func TestDiffNil(t *testing.T) {
	f := &File{Lang: "go", Tests: []Test{{Name: "TestA", Assertions: 2}, {Name: "TestA", Assertions: 1}}, Assertions: 3}
	if c := Diff(nil, f); c.Suspicious() || !reflect.DeepEqual(c.Added, []string{"TestA", "TestA"}) || c.Assertions != 3 {
		t.Errorf("Diff(nil, f) = %#v", c)
	}
	c := Diff(f, nil)
	if !reflect.DeepEqual(c.Removed, []string{"TestA", "TestA"}) || c.Assertions != -3 || !c.Suspicious() {
		t.Errorf("Diff(f, nil) = %#v", c)
	}
	// Duplicate names pair in order: the second TestA lost its assertion.
	g := &File{Tests: []Test{{Name: "TestA", Assertions: 2}, {Name: "TestA"}}, Assertions: 2}
	if c := Diff(f, g); !reflect.DeepEqual(c.Weakened, []string{"TestA"}) || c.Removed != nil || c.Added != nil {
		t.Errorf("Diff with duplicate names = %#v", c)
	}
}

func TestChangesString(t *testing.T) {
	c := Changes{
		Removed:    []string{"a", "b", "c", "d", "e", "f", "g"},
		Added:      []string{"h"},
		Skipped:    []string{"i"},
		Emptied:    []string{"j"},
		Weakened:   []string{"k"},
		Skips:      2,
		Assertions: -1,
		Trivial:    3,
	}
	want := "tests removed: a, b, c, d, e and 2 more; tests newly skipped: i; test bodies emptied: j; " +
		"tests with fewer real assertions: k; 2 skips added; 1 assertion removed; 3 trivially true assertions added"
	if got := c.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	if got := (Changes{Added: []string{"x"}, Assertions: 4, Skips: -1}).String(); got != "" {
		t.Errorf("String() of harmless changes = %q, want \"\"", got)
	}
}
