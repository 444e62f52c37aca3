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
# The build users install links the tray (cgo): its CLI start is measured
# too, where a C compiler is at hand.
cli=()
if [ "${BENCH_TRAY:-1}" != 0 ] && command -v "${CC:-cc}" >/dev/null; then
	echo "bench: building the cgo build (the tray linked in)" >&2
	CGO_ENABLED=1 "$GO" build -o "$out/buildstation-tray" .
	cli=(-cli-bin "$out/buildstation-tray")
fi
start=$(date +%s)
"$out/bench" -bin "$out/buildstation" "${cli[@]}" "$@"
# The tray's figures need cgo (Fyne) and Xvfb: a console under 1 MB/s of
# ANSI against the console closed, and the tray's idle cost against an
# empty Fyne app.
if [ "${BENCH_TRAY:-1}" != 0 ] && [ $# -eq 0 ]; then
	command -v Xvfb >/dev/null || { echo "bench: Xvfb is needed for the tray's figures; install it (apt-get install xvfb)" >&2; exit 1; }
	echo "bench: building the tray bench (cgo)" >&2
	CGO_ENABLED=1 "$GO" build -o "$out/bench-tray" ./bench/tray
	[ -x "$out/buildstation-tray" ] || CGO_ENABLED=1 "$GO" build -o "$out/buildstation-tray" .
	"$out/bench-tray" -bin "$out/buildstation" -tray-bin "$out/buildstation-tray"
fi
echo "make bench took $(( $(date +%s) - start ))s after the build" >&2
