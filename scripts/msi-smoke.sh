#!/usr/bin/env bash
# msi-smoke: the Windows installer's round trip under Wine, as a user meets it.
#
#   bash scripts/msi-smoke.sh [PATH.msi]     (default: the newest in bin/dist)
#
# In a fresh private Wine prefix (with .ci/wine-run.sh's ProcessPrng shim):
# 1. `msiexec /i … /qn` installs per-user: both faces land in the user's
#    %LOCALAPPDATA%\Programs\Build Station, the Start-menu shortcut, the
#    buildstation:// handler under HKCU pointing at buildstationw.exe; the
#    MSI's MsiShortcutProperty table gives the shortcut the app's AUMID.
# 2. The installed buildstation.exe answers --version (the packaged
#    version) and `service install --dry-run`.
# 3. `msiexec /x … /qn` uninstalls: no file of the install is left
#    (compared with a listing of the user's folders from before), and the
#    handler's key is gone.
# Needs (Debian): wine64, gcc-mingw-w64-x86-64, msitools (.ci/deps).
# Prints PASS/FAIL lines; exits non-zero on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
msi=${1:-$(ls -t bin/dist/buildstation-*-windows-amd64.msi 2>/dev/null | head -1)}
[ -n "$msi" ] && [ -f "$msi" ] || { echo "FAIL: no MSI: run make package first"; exit 1; }
msi=$(cd "$(dirname "$msi")" && pwd)/$(basename "$msi")
work=$(mktemp -d "${TMPDIR:-/tmp}/msi-smoke.XXXXXX")
export WINEPREFIX=$work/prefix WINEDEBUG=-all
failed=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
wine_run() { timeout 600 bash "$root/.ci/wine-run.sh" "$@"; }
cleanup() {
  wineserver_bin=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
  [ -x "$wineserver_bin" ] && "$wineserver_bin" -k 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
winpath() { printf 'Z:%s' "${1//\//\\}"; }

if msiinfo export "$msi" MsiShortcutProperty 2>/dev/null | grep -q $'BuildStationShortcut\t{9F4C2855-9F79-4B39-A8D0-E1D42DE1D5F3}, 5\tdev.buildstation.app'; then
  pass "the Start-menu shortcut carries the AUMID dev.buildstation.app (MsiShortcutProperty)"
else
  fail "the MSI has no AUMID for its shortcut"
fi
if msiinfo export "$msi" Property | grep -q $'^ALLUSERS\t2' && msiinfo suminfo "$msi" | grep -qi 'word count: 10\|Word Count: 10'; then
  pass "per-user package (ALLUSERS=2, MSIINSTALLPERUSER=1; no elevation)"
else
  msiinfo export "$msi" Property | grep -q $'^MSIINSTALLPERUSER\t1' && pass "per-user package (MSIINSTALLPERUSER=1)" || fail "the package is not per-user"
fi

echo "msi-smoke: making a fresh Wine prefix (about a minute)"
wine_run cmd /c exit 0 >/dev/null 2>&1
users=$WINEPREFIX/drive_c/users
before=$work/before.txt after=$work/after.txt
snapshot() { (cd "$users" && find . -path '*/Temp' -prune -o -print | sort) >"$1"; }
snapshot "$before"

echo "msi-smoke: msiexec /i $(basename "$msi") /qn"
if wine_run msiexec /i "$(winpath "$msi")" /qn /l*v "$(winpath "$work/install.log")" >/dev/null 2>&1; then
  pass "msiexec /i /qn"
else
  fail "msiexec /i failed: $(tail -5 "$work/install.log" 2>/dev/null | tr -d '\r')"
fi
dir=$(find "$users" -maxdepth 5 -type d -path '*AppData/Local/Programs/Build Station' | head -1)
if [ -n "$dir" ] && [ -f "$dir/buildstation.exe" ] && [ -f "$dir/buildstationw.exe" ]; then
  pass "both faces in the user's programs folder (${dir#"$users"/})"
else
  fail "no buildstation.exe and buildstationw.exe in AppData/Local/Programs/Build Station"
fi
if find "$users" -path '*Start Menu/Programs/Build Station.lnk' | grep -q .; then
  pass "Start-menu shortcut"
else
  fail "no Start-menu shortcut"
fi
handler=$(wine_run reg query 'HKCU\Software\Classes\buildstation\shell\open\command' 2>/dev/null | tr -d '\r')
if printf '%s' "$handler" | grep -q 'buildstationw.exe" open "%1"'; then
  pass "buildstation:// handler runs the installed buildstationw.exe open"
else
  fail "no buildstation:// handler: $handler"
fi
if [ -n "$dir" ]; then
  want=$(bash "$root/scripts/version.sh")
  v=$(wine_run "$dir/buildstation.exe" --version 2>&1 | tr -d '\r')
  if [ "$v" = "buildstation $want" ]; then pass "installed buildstation.exe --version: $v"; else fail "--version said '$v', want 'buildstation $want'"; fi
  home=$work/home
  mkdir -p "$home"
  dry=$(wine_run "$dir/buildstation.exe" service install --dry-run --home "$(winpath "$home")" 2>&1 | tr -d '\r')
  if printf '%s' "$dry" | grep -qi 'buildstationw.exe' && printf '%s' "$dry" | grep -qi 'Build Station'; then
    pass "installed buildstation.exe service install --dry-run names the installed buildstationw.exe"
  else
    fail "service install --dry-run: $dry"
  fi
fi

echo "msi-smoke: msiexec /x $(basename "$msi") /qn"
if wine_run msiexec /x "$(winpath "$msi")" /qn /l*v "$(winpath "$work/uninstall.log")" >/dev/null 2>&1; then
  pass "msiexec /x /qn"
else
  fail "msiexec /x failed"
fi
if grep -aq 'RemoveAutostart' "$work/uninstall.log" 2>/dev/null || iconv -f UTF-16LE -t UTF-8 "$work/uninstall.log" 2>/dev/null | grep -q RemoveAutostart; then
  pass "uninstall ran buildstation.exe service uninstall (the autostart)"
else
  fail "uninstall did not run service uninstall"
fi
snapshot "$after"
left=$(comm -13 "$before" "$after" | grep -iv 'fontconfig\|/Temp$\|wine_gecko\|wine_mono' || true)
if [ -z "$left" ]; then
  pass "no file of the install is left behind"
else
  fail "left behind after uninstall: $left"
fi
if wine_run reg query 'HKCU\Software\Classes\buildstation' >/dev/null 2>&1; then
  fail "the buildstation:// key is still there"
else
  pass "the buildstation:// key is gone"
fi
exit $failed
