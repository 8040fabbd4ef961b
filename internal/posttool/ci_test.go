package posttool

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

const workflow = `name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: '1.26'
      - run: go vet ./...
      - run: |
          go test -race ./...
          npm ci && npm run lint
      - uses: golangci/golangci-lint-action@v6 # lint
      # - run: make integration-test
`

func keys(ci CI) string {
	var out []string
	for _, s := range ci.Steps {
		k := s.Key
		if s.Off {
			k += " (off)"
		}
		out = append(out, k)
	}
	return strings.Join(out, ", ")
}

func TestReadCI(t *testing.T) {
	tests := []struct {
		name, file, src string
		want, disabled  string
	}{
		{"github", ".github/workflows/ci.yml", workflow, "go vet, go test, npm run lint, uses: golangci/golangci-lint-action", ""},
		{"gitlab", ".gitlab-ci.yml", "test:\n  script:\n    - pip install -e .\n    - python -m pytest -q\n    - npm test\n    - make check lint\n  allow_failure: true\n", "pytest, npm test, make check, make lint", "allow_failure: true"},
		{"jenkins", "Jenkinsfile", "pipeline {\n  stages {\n    stage('test') { steps { sh './gradlew check' } }\n    stage('mvn') { steps { sh 'mvn -B -ntp verify' } }\n  }\n}\n", "gradle check, mvn verify", ""},
		{"husky", ".husky/pre-commit", "#!/usr/bin/env sh\nnpx lint-staged\nyarn test:unit --silent\n", "lint-staged, yarn test:unit", ""},
		{"pre-commit ids", ".pre-commit-config.yaml", "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.6.0\n    hooks:\n      - id: ruff\n      - id: ruff-format\n", "pre-commit hook ruff, pre-commit hook ruff-format", ""},
		{"neutralised", ".github/workflows/ci.yml", "      - run: go test ./... || true\n      - run: cargo clippy -- -D warnings\n", "go test (off), cargo clippy", ""},
		{"disabled", ".github/workflows/ci.yml", "    if: ${{ false }}\n    continue-on-error: true\n    if: github.ref == 'refs/heads/main'\n", "", "if: ${{false}}, continue-on-error: true"},
		{"not steps", ".github/workflows/ci.yml", "      - run: go build ./...\n      - run: npm ci\n      - run: npm run build\n      - name: test the thing\n      - run: echo testing\n", "", ""},
		{"npm run", ".gitlab-ci.yml", "  - npm run test -- --coverage\n  - pnpm run typecheck\n  - npm run format\n", "npm run test, pnpm run typecheck", ""},
		{"empty", ".travis.yml", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ci := ReadCI(tt.file, []byte(tt.src))
			if got := keys(ci); got != tt.want {
				t.Errorf("steps = %q, want %q", got, tt.want)
			}
			if got := strings.Join(ci.Disabled, ", "); got != tt.disabled {
				t.Errorf("disabled = %q, want %q", got, tt.disabled)
			}
		})
	}
}

func TestCompareCI(t *testing.T) {
	base := ReadCI("ci.yml", []byte(workflow))
	tests := []struct {
		name              string
		after             string
		removed, disabled string
	}{
		{"unchanged", workflow, "", ""},
		{"a flag added", strings.Replace(workflow, "go test -race ./...", "go test -race -count=1 ./...", 1), "", ""},
		{"a step reordered", strings.Replace(workflow, "      - run: go vet ./...\n", "", 1) + "      - run: go vet ./...\n", "", ""},
		{"test step gone", strings.Replace(workflow, "          go test -race ./...\n", "", 1), "go test", ""},
		{"commented out", strings.Replace(workflow, "      - run: go vet ./...", "      # - run: go vet ./...", 1), "go vet", ""},
		{"made unable to fail", strings.Replace(workflow, "npm run lint", "npm run lint || true", 1), "npm run lint", ""},
		{"action removed", strings.Replace(workflow, "      - uses: golangci/golangci-lint-action@v6 # lint\n", "", 1), "uses: golangci/golangci-lint-action", ""},
		{"action upgraded", strings.Replace(workflow, "lint-action@v6", "lint-action@v7", 1), "", ""},
		{"allowed to fail", strings.Replace(workflow, "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    continue-on-error: true\n", 1), "", "continue-on-error: true"},
		{"file emptied", "", "go vet, go test, npm run lint, uses: golangci/golangci-lint-action", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			removed, disabled := compareCI(base, ReadCI("ci.yml", []byte(tt.after)))
			if got := keys(CI{Steps: removed}); got != tt.removed {
				t.Errorf("removed = %q, want %q", got, tt.removed)
			}
			if got := strings.Join(disabled, ", "); got != tt.disabled {
				t.Errorf("disabled = %q, want %q", got, tt.disabled)
			}
		})
	}
}

func TestIsCI(t *testing.T) {
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	pats := ciPatterns(cfg)
	for rel, want := range map[string]bool{
		".github/workflows/ci.yml":     true,
		".github/workflows/lint.yaml":  true,
		".github/dependabot.yml":       false,
		".gitlab-ci.yml":               true,
		".circleci/config.yml":         true,
		"Jenkinsfile":                  true,
		".pre-commit-config.yaml":      true,
		".husky/pre-commit":            true,
		".husky/_/husky.sh":            false,
		"lefthook.yml":                 true,
		"src/ci.yml":                   false,
		"docs/.github/workflows/x.yml": false,
	} {
		if got := isCI(rel, pats); got != want {
			t.Errorf("isCI(%q) = %v, want %v", rel, got, want)
		}
	}
}
