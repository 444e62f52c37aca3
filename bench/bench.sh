#!/usr/bin/env bash
# bench.sh: build the station binary and the bench, then run every figure
# (`make bench`). The table goes to stdout, progress to stderr. Extra
# arguments go to the bench program, e.g. `bench/bench.sh -only startup`.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=$(mktemp -d "${TMPDIR:-/tmp}/bs-bench-bin-XXXXXX")
# The binaries go however the bench ends: Ctrl-C and SIGTERM exit through
# the EXIT trap too (the bench removes its own scratch folder itself).
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
if [ "$(uname -s)" != Linux ]; then
	echo "bench: the benchmarks read /proc and run on Linux only" >&2
	exit 1
fi
command -v tmux >/dev/null || { echo "bench: tmux is needed for the idle baseline; install it (apt-get install tmux)" >&2; exit 1; }
echo "bench: building buildstation and the bench" >&2
CGO_ENABLED=0 "$GO" build -o "$out/buildstation" .
CGO_ENABLED=0 "$GO" build -o "$out/bench" ./bench
CGO_ENABLED=0 "$GO" build -o "$out/rusage" ./bench/rusage
CGO_ENABLED=0 "$GO" build -o "$out/hello" ./bench/hello
# The build users install: the command line (cmd/buildstation, no cgo)
# with the app beside it (the tray linked in, cgo), as the packages ship
# them; its CLI start is measured too, where a C compiler is at hand.
cli=()
if [ "${BENCH_TRAY:-1}" != 0 ] && command -v "${CC:-cc}" >/dev/null; then
	echo "bench: building the installed pair (buildstation, and the cgo buildstation-app with the tray)" >&2
	mkdir -p "$out/installed"
	CGO_ENABLED=1 "$GO" build -o "$out/installed/buildstation-app" .
	CGO_ENABLED=0 "$GO" build -o "$out/installed/buildstation" ./cmd/buildstation
	cli=(-cli-bin "$out/installed/buildstation")
fi
start=$(date +%s)
# A figure that failed makes the exit code, after the
# tray's figures have run too: the table is whole either way.
rc=0
"$out/bench" -bin "$out/buildstation" -rusage-bin "$out/rusage" -hello-bin "$out/hello" "${cli[@]}" "$@" || rc=$?
# The tray's figures need cgo (Fyne) and Xvfb: a console under 1 MB/s of
# ANSI against the console closed, and the tray's idle cost against an
# empty Fyne app.
if [ "${BENCH_TRAY:-1}" != 0 ] && [ $# -eq 0 ]; then
	command -v Xvfb >/dev/null || { echo "bench: Xvfb is needed for the tray's figures; install it (apt-get install xvfb)" >&2; exit 1; }
	echo "bench: building the tray bench (cgo)" >&2
	CGO_ENABLED=1 "$GO" build -o "$out/bench-tray" ./bench/tray
	[ -x "$out/installed/buildstation-app" ] || { mkdir -p "$out/installed" && CGO_ENABLED=1 "$GO" build -o "$out/installed/buildstation-app" .; }
	"$out/bench-tray" -bin "$out/buildstation" -tray-bin "$out/installed/buildstation-app" || rc=$?
fi
echo "make bench took $(( $(date +%s) - start ))s after the build" >&2
exit $rc
