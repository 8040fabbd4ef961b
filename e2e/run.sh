#!/usr/bin/env bash
# Runs the end-to-end tests: the real Claude Code, Copilot CLI, Codex CLI,
# Gemini CLI and OpenCode (pinned in e2e/package-lock.json) against a
# scripted local model server.
#
#   bash e2e/run.sh                  # run it
#   bash e2e/run.sh -args -update    # and rewrite testdata/events
#
# Extra arguments go to "go test". The CLIs are installed with npm when one
# is missing or does not match the lockfile.
set -euo pipefail

cd "$(dirname "$0")/.."

# current reports whether e2e/node_modules holds exactly what the lockfile
# pins (optional packages of other platforms aside) and the CLI really runs
# (without its postinstall step, bin/claude is only a placeholder).
current() {
	for cli in claude copilot codex gemini opencode; do
		[ -x "e2e/node_modules/.bin/$cli" ] || return 1
	done
	node -e '
		const fs = require("fs");
		const lock = JSON.parse(fs.readFileSync("e2e/package-lock.json", "utf8"));
		for (const [p, m] of Object.entries(lock.packages)) {
			if (p === "") continue;
			let v;
			try {
				v = JSON.parse(fs.readFileSync("e2e/" + p + "/package.json", "utf8")).version;
			} catch (e) {
				if (m.optional) continue;
				process.exit(1);
			}
			if (v !== m.version) process.exit(1);
		}
	' || return 1
	# Each CLI runs once, in a throwaway HOME it may write to.
	local home
	home=$(mktemp -d)
	for cli in claude copilot codex gemini opencode; do
		if ! HOME="$home" "e2e/node_modules/.bin/$cli" --version >/dev/null 2>&1; then
			rm -rf "$home"
			return 1
		fi
	done
	rm -rf "$home"
}

# Not npm ci: opencode-ai lists a package per platform as optional, the
# lockfile can only hold those the registry it was made against serves, and
# npm ci refuses a lockfile without them all. npm install installs exactly
# what the lockfile pins all the same (--no-save: it rewrites nothing), and
# current checks that it did.
if ! current; then
	npm install --prefix e2e --no-save --no-audit --no-fund
	current || { echo "e2e/run.sh: e2e/node_modules does not match e2e/package-lock.json after npm install" >&2; exit 1; }
fi

# Five agents' runs take 15 to 25 minutes on a busy 2-core machine, past go
# test's default 10: a hang fails by this timeout instead.
exec go test -tags e2e -count=1 -timeout 60m -v ./e2e/ "$@"
