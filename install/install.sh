#!/usr/bin/env bash
# Builds ralph-hooks into a private prefix and links ralph onto PATH.
#
#   install/install.sh [--prefix DIR] [--bindir DIR] [--plugin]
#
#   --prefix DIR   where the binaries go (default ~/.local/lib/ralph-hooks);
#                  they land in DIR/bin, off PATH: generic names like "stop"
#                  never shadow other commands
#   --bindir DIR   where the ralph link goes (default ~/.local/bin)
#   --plugin       build into install/claude-plugin/bin instead, for the
#                  Claude Code plugin (claude --plugin-dir install/claude-plugin)
#
# Binaries are built into a temp dir beside their destination and renamed
# into place, so a hook an agent is running never sees a half-written file.
# Then register the hooks: ralph install (see README.md).
set -euo pipefail

prefix="${HOME}/.local/lib/ralph-hooks"
bindir="${HOME}/.local/bin"
plugin=false
while [ $# -gt 0 ]; do
	case "$1" in
	--prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
	--prefix=*) prefix="${1#*=}"; shift ;;
	--bindir) bindir="${2:?--bindir needs a directory}"; shift 2 ;;
	--bindir=*) bindir="${1#*=}"; shift ;;
	--plugin) plugin=true; shift ;;
	-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "ralph: install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

src="$(cd "$(dirname "$0")/.." && pwd)"
if ! $plugin; then # absolute: the build runs from the source tree
	prefix="$(mkdir -p "$prefix" && cd "$prefix" && pwd)"
	bindir="$(mkdir -p "$bindir" && cd "$bindir" && pwd)"
fi
if ! command -v go >/dev/null 2>&1; then
	echo "ralph: install.sh needs Go 1.26 or later on PATH (https://go.dev/dl/)" >&2
	exit 1
fi

dest="$prefix/bin"
if $plugin; then
	dest="$src/install/claude-plugin/bin"
fi
mkdir -p "$dest"
tmp="$(mktemp -d "$dest/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
(cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$tmp/" ./hooks/... ./cmd/...)
for f in "$tmp"/*; do
	mv -f "$f" "$dest/$(basename "$f")"
done
echo "Built ralph, ralph-statusline, pre-tool-call, post-tool-call, stop and post-iteration-reflect into $dest"

if $plugin; then
	echo "Plugin ready: claude --plugin-dir $src/install/claude-plugin"
	exit 0
fi

mkdir -p "$bindir"
ln -sfn "$dest/ralph" "$bindir/ralph"
echo "Linked $bindir/ralph -> $dest/ralph"
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "Note: $bindir is not on your PATH; add it, or run $dest/ralph" ;;
esac
echo "Next, in your project: ralph install   (then: ralph doctor)"
