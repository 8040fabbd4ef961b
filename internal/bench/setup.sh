#!/usr/bin/env bash
# Times ralph install, uninstall, doctor and demo in a temp project (make bench runs it).
# Usage: bash internal/bench/setup.sh [BIN]   (default bin/)
set -euo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
B=$(cd "${1:-bin}" && pwd)
cd "$d" || exit 1
git init -q
GOCACHE=$(go env GOCACHE) && export GOCACHE  # the demo runs go test: keep the build cache
export HOME=$d/home
mkdir -p "$HOME"
for i in 1 2 3; do
  s=$(date +%s%N); "$B/ralph" install >/dev/null; e=$(date +%s%N); echo "install $(( (e-s)/1000 )) us"
  s=$(date +%s%N); "$B/ralph" install >/dev/null; e=$(date +%s%N); echo "install again $(( (e-s)/1000 )) us"
  s=$(date +%s%N); "$B/ralph" uninstall >/dev/null; e=$(date +%s%N); echo "uninstall $(( (e-s)/1000 )) us"
done
"$B/ralph" install >/dev/null
for i in 1 2 3; do
  s=$(date +%s%N); "$B/ralph" doctor >/dev/null; e=$(date +%s%N); echo "doctor (7 runs x 4 probes) $(( (e-s)/1000000 )) ms"
done
"$B/ralph" doctor
for i in 1 2 3; do
  s=$(date +%s%N); "$B/ralph" demo >/dev/null; e=$(date +%s%N); echo "demo $(( (e-s)/1000000 )) ms"
done
