# ralph-hooks — see README.md. Everything builds into bin/.

GO          ?= go
BIN         := bin
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: all build test lint bench e2e ui-test demo fuzz install plugin clean

all: build

## build: the four hooks, ralph and ralph-statusline, into bin/ (static: no cgo, so no
## dynamic loader to pay for on every hook call)
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./hooks/... ./cmd/...

## install: the binaries into ~/.local/lib/ralph-hooks/bin, ralph linked
## into ~/.local/bin (PREFIX=… BINDIR=… to change); then run ralph install
install:
	bash install/install.sh $(if $(PREFIX),--prefix $(PREFIX)) $(if $(BINDIR),--bindir $(BINDIR))

## plugin: the binaries into install/claude-plugin/bin, for the Claude Code plugin
plugin:
	bash install/install.sh --plugin

## test: every test, with the race detector (no outcome depends on the
## machine's speed; a hang fails by the 30 min timeout). GORACE: the tests
## run hundreds of race-built processes, each of which would otherwise
## sleep a second at exit.
test:
	GORACE=atexit_sleep_ms=0 $(GO) test -race -count=1 -timeout 30m ./...

## lint: gofmt, go vet, staticcheck (pinned)
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

## bench: Go benchmarks, then whole-process latency and memory of the hooks
## (ratios to a no-op process): the sample project, with 100,000 audit lines,
## in projects of 100, 5,000 and 50,000 files, a 10,000-file deletion and its
## rollback, the persistence extension's overhead, then install/doctor/demo.
## About 10 minutes on a quiet 2-core machine; the load is printed before and
## after (numbers measured under load are noise).
bench: build
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./internal/bench/noop ./internal/bench/linked ./internal/bench/rss
	uptime
	RALPH_BIN=$(CURDIR)/$(BIN)/ralph RALPH_FLOOR=$(CURDIR)/$(BIN)/noop $(GO) test -run='^$$' -bench=. -benchmem ./internal/...
	$(BIN)/ralph bench --floor $(BIN)/noop --linked $(BIN)/linked --rss $(BIN)/rss --runs 500
	$(BIN)/ralph bench --floor $(BIN)/noop --rss $(BIN)/rss --runs 300 --history 100000
	$(BIN)/ralph bench --floor $(BIN)/noop --rss $(BIN)/rss --runs 200 --files 100 --delete 10000 --delete-runs 3
	$(BIN)/ralph bench --floor $(BIN)/noop --rss $(BIN)/rss --runs 100 --files 5000
	$(BIN)/ralph bench --floor $(BIN)/noop --rss $(BIN)/rss --runs 20 --files 50000
	$(BIN)/ralph bench --with-persistence --without-persistence --runs 20
	bash internal/bench/setup.sh $(BIN)
	uptime

## e2e: the real agents (npm: Claude Code, Copilot CLI, Codex CLI, Gemini CLI,
## OpenCode) against a scripted local model server
e2e:
	bash e2e/run.sh

## ui-test: ralph ui in headless Chromium (Debian's chromium package, or
## CHROMIUM=path): a loop at its gate, Reject pressed; screenshots in
## bin/ui-test; UI_TEST_ARGS=-screenshot rewrites docs/dashboard.png
ui-test:
	RALPH_ARTIFACTS=$(CURDIR)/$(BIN)/ui-test $(GO) test -tags browser -run TestBrowser -count=1 -timeout 5m -v ./internal/ui/ $(if $(UI_TEST_ARGS),-args $(UI_TEST_ARGS))

## demo: a scripted agent session through the guard, on a sample project
demo: build
	@$(BIN)/ralph demo

## fuzz: a short run of every fuzz target
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzCommand -fuzztime=30s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzPatchFiles -fuzztime=20s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzMCP -fuzztime=20s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzExScript -fuzztime=10s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzModulePath -fuzztime=10s ./internal/gomod/
	$(GO) test -run='^$$' -fuzz=FuzzArchivedTests -fuzztime=20s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=10s ./internal/procscan/
	$(GO) test -run='^$$' -fuzz=FuzzAnalyze -fuzztime=30s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzCode -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzProjectFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzTaskFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzToolFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzPreloadFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzGradleMore -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzPyLint -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzLintStaged -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzNamed -fuzztime=20s ./internal/startup/
	$(GO) test -run='^$$' -fuzz=FuzzInstallFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzMakeParse -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzTOMLStrings -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzSedExec -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzOutlasting -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzNatives -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzOptParsers -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzRunnerFiles -fuzztime=20s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzZshQualifier -fuzztime=10s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzNixString -fuzztime=10s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzGoSetupMemo -fuzztime=10s ./internal/shell/
	$(GO) test -run='^$$' -fuzz=FuzzDecode -fuzztime=30s ./internal/event/
	$(GO) test -run='^$$' -fuzz=FuzzPatchFiles -fuzztime=20s ./internal/event/
	$(GO) test -run='^$$' -fuzz=FuzzTranslate -fuzztime=30s ./internal/pwsh/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=30s ./internal/config/
	$(GO) test -run='^$$' -fuzz=FuzzLookup -fuzztime=30s ./internal/registry/
	$(GO) test -run='^$$' -fuzz=FuzzIndex -fuzztime=20s ./internal/vault/
	$(GO) test -run='^$$' -fuzz=FuzzGo -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzPython -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzJS -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzRust -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzJava -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzRuby -fuzztime=20s ./internal/testscan/
	$(GO) test -run='^$$' -fuzz=FuzzParseSummary -fuzztime=30s ./internal/metrics/
	$(GO) test -run='^$$' -fuzz=FuzzParseError -fuzztime=20s ./internal/posttool/
	$(GO) test -run='^$$' -fuzz=FuzzReadCI -fuzztime=20s ./internal/posttool/
	$(GO) test -run='^$$' -fuzz=FuzzCommandSettings -fuzztime=20s ./internal/posttool/
	$(GO) test -run='^$$' -fuzz=FuzzBypasses -fuzztime=20s ./internal/posttool/
	$(GO) test -run='^$$' -fuzz=FuzzDecode -fuzztime=20s ./internal/testindex/
	$(GO) test -run='^$$' -fuzz=FuzzGlobs -fuzztime=20s ./internal/testindex/
	$(GO) test -run='^$$' -fuzz=FuzzDecode -fuzztime=20s ./internal/treeview/
	$(GO) test -run='^$$' -fuzz=FuzzUnchanged -fuzztime=20s ./internal/treeview/
	$(GO) test -run='^$$' -fuzz=FuzzReadCache -fuzztime=10s ./internal/state/
	$(GO) test -run='^$$' -fuzz=FuzzLoadSelection -fuzztime=20s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzSedScript -fuzztime=10s ./internal/risk/
	$(GO) test -run='^$$' -fuzz=FuzzTolerance -fuzztime=10s ./internal/tamper/
	$(GO) test -run='^$$' -fuzz=FuzzApply -fuzztime=20s ./internal/tamper/
	$(GO) test -run='^$$' -fuzz=FuzzExtract -fuzztime=20s ./internal/reflection/
	$(GO) test -run='^$$' -fuzz=FuzzDecodeIteration -fuzztime=20s ./internal/reflection/
	$(GO) test -run='^$$' -fuzz=FuzzCheck -fuzztime=20s ./internal/tamper/
	$(GO) test -run='^$$' -fuzz=FuzzMatchers -fuzztime=20s ./internal/tamper/
	$(GO) test -run='^$$' -fuzz=FuzzString -fuzztime=10s ./internal/clip/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=20s ./internal/audit/
	$(GO) test -run='^$$' -fuzz=FuzzRoundTrip -fuzztime=30s ./internal/install/
	$(GO) test -run='^$$' -fuzz=FuzzAgentRoundTrip -fuzztime=30s ./internal/install/
	$(GO) test -run='^$$' -fuzz=FuzzReplayInput -fuzztime=20s ./internal/cli/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=30s ./internal/task/
	$(GO) test -run='^$$' -fuzz=FuzzLine -fuzztime=20s ./internal/statusline/
	$(GO) test -run='^$$' -fuzz=FuzzJS -fuzztime=20s ./internal/initcfg/
	$(GO) test -run='^$$' -fuzz=FuzzFile -fuzztime=20s ./internal/surface/
	$(GO) test -run='^$$' -fuzz=FuzzLatest -fuzztime=20s ./internal/surface/
	$(GO) test -run='^$$' -fuzz=FuzzReader -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzReports -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzJSCall -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzSources -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzBuildConfig -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzModKey -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzVendorModules -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzTestImports -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzRecipes -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzHardcodes -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzToolchainName -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzCodePackages -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzPyCodeModules -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzPythonVersions -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzStartLiterals -fuzztime=20s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzCodeText -fuzztime=10s ./internal/completion/
	$(GO) test -run='^$$' -fuzz=FuzzDecode -fuzztime=20s ./internal/treeview/
	$(GO) test -run='^$$' -fuzz=FuzzSay -fuzztime=20s ./internal/jsonerr/
	$(GO) test -run='^$$' -fuzz=FuzzLoad -fuzztime=20s ./internal/checkpoint/

clean:
	rm -rf $(BIN)
