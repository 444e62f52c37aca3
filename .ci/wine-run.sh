#!/usr/bin/env bash
# wine-run: run a Windows program built by Go under Wine, in a private Wine
# prefix this script prepares once.
#
#   bash .ci/wine-run.sh PROGRAM.exe [ARGS...]
#
# Why a private prefix with a shim: since Go 1.24 the Windows runtime asks
# bcryptprimitives.dll for ProcessPrng at start, and the Wine in Debian 12
# (Wine 8) has no such export, so every Go program dies before main. The
# shim is a one-function DLL, built here with mingw, that answers
# ProcessPrng from advapi32's RtlGenRandom (SystemFunction036). It is put in
# the prefix's system32 only, never in the user's own Wine.
#
# Needs (Debian): apt-get install -y wine64 gcc-mingw-w64-x86-64
# (.ci/deps installs both). WINEPREFIX overrides the prefix's place.
set -euo pipefail
prog=${1:?usage: wine-run.sh PROGRAM.exe [ARGS...]}
shift
wine=
for w in /usr/lib/wine/wine64 "$(command -v wine64 2>/dev/null)" "$(command -v wine 2>/dev/null)"; do
  if [ -n "$w" ] && [ -x "$w" ]; then wine=$w; break; fi
done
[ -n "$wine" ] || { echo "wine-run: no Wine found; apt-get install -y wine64" >&2; exit 2; }
export WINEPREFIX=${WINEPREFIX:-${TMPDIR:-/tmp}/buildstation-wine-$(id -u)} WINEDEBUG=${WINEDEBUG:--all}
# No "install Mono/Gecko?" dialogs while the prefix is made.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
system32=$WINEPREFIX/drive_c/windows/system32
stamp=$system32/bcryptprimitives.buildstation-shim

if [ ! -e "$stamp" ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null \
    || { echo "wine-run: mingw is needed to build the ProcessPrng shim; apt-get install -y gcc-mingw-w64-x86-64" >&2; exit 2; }
  mkdir -p "$WINEPREFIX"
  "$wine" wineboot --init >/dev/null 2>&1 || true   # makes the prefix
  src=$(mktemp -d)
  trap 'rm -rf "$src"' EXIT
  cat >"$src/prng.c" <<'C'
/* ProcessPrng for Wine builds that lack it: fill the buffer from
   RtlGenRandom, in chunks that fit its ULONG length. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len) {
  while (len > 0) {
    ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!RtlGenRandom(buf, chunk)) return FALSE;
    buf += chunk;
    len -= chunk;
  }
  return TRUE;
}
C
  x86_64-w64-mingw32-gcc -O2 -shared -o "$system32/bcryptprimitives.dll" "$src/prng.c" -ladvapi32
  touch "$stamp"
fi
exec "$wine" "$prog" "$@"
