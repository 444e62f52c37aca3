#!/usr/bin/env bash
# bench.sh: build the station binary and the bench, then run every figure
# (`make bench`). The table goes to stdout, progress to stderr. Extra
# arguments go to the bench program, e.g. `bench/bench.sh -only startup`.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=$(mktemp -d "${TMPDIR:-/tmp}/bs-bench-bin-XXXXXX")
trap 'rm -rf "$out"' EXIT
if [ "$(uname -s)" != Linux ]; then
	echo "bench: the benchmarks read /proc and run on Linux only" >&2
	exit 1
fi
command -v tmux >/dev/null || { echo "bench: tmux is needed for the idle baseline; install it (apt-get install tmux)" >&2; exit 1; }
echo "bench: building buildstation and the bench" >&2
CGO_ENABLED=0 "$GO" build -o "$out/buildstation" .
CGO_ENABLED=0 "$GO" build -o "$out/bench" ./bench
start=$(date +%s)
"$out/bench" -bin "$out/buildstation" "$@"
echo "make bench took $(( $(date +%s) - start ))s after the build" >&2
