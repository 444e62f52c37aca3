#!/usr/bin/env bash
# msi-smoke: the Windows installer's round trip under Wine, as a user meets it.
#
#   bash scripts/msi-smoke.sh [NEW.msi [OLD.msi]]   (default: the newest in bin/dist)
#
# The MSI's tables first: the shortcut's AUMID (MsiShortcutProperty), the
# per-user properties, the x64;1033 template, ARPPRODUCTICON, each exe's
# version in the File table (scripts/version.sh msi), the upgrade row's
# inclusive maximum (an rc and its release upgrade in place), and the
# uninstall-only custom action's condition (NOT UPGRADINGPRODUCTCODE).
# Then, in a fresh private Wine prefix (with .ci/wine-run.sh's ProcessPrng
# shim):
# 1. `msiexec /i … /qn` installs per-user: the three exes (buildstation.exe,
#    the command line; buildstation-app.exe and buildstationw.exe, the whole
#    program's console and GUI faces) and nothing else land in the user's
#    %LOCALAPPDATA%\Programs\Build Station, the Start-menu shortcut, the
#    buildstation:// handler under HKCU pointing at buildstationw.exe.
# 2. The three answer --version with scripts/version.sh's version, each
#    carries the File table's file version; buildstation.exe hands a verb
#    it does not link (board --help) to buildstation-app.exe (the same
#    front alone in another folder cannot), and `service install
#    --dry-run` through it names buildstationw.exe.
# 3. `msiexec /x … /qn` uninstalls: no file of the install is left
#    (compared with a listing of the user's folders from before), and the
#    handler's key is gone.
# With OLD.msi (an older version; make package-check builds one from the
# last commit whose MSI shipped two whole-program faces, scripts/old-msi.sh),
# the upgrade in a second fresh prefix: OLD installed, `service install`
# (Wine 8's schtasks /create /xml exits 1, so it rolls back: the Run value
# is then written as service install writes it, and the logon task is
# left to windows.yml on a real Windows), a station started from the old
# buildstationw.exe; NEW installed over it → one product, both exes say
# the new version, the Run value and the link handler still there, the
# station asked to quit before the files were replaced and started again
# from the new program, the install folder holding the three exes and no
# stale file; then NEW uninstalled → no file of the install,
# no Run value, no handler (the home is the user's and stays).
# MSI_TABLES_ONLY=1 checks the tables alone (no Wine needed).
# Needs (Debian): wine64, gcc-mingw-w64-x86-64, msitools (.ci/deps).
# Prints PASS/FAIL lines; exits non-zero on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
msi=${1:-$(ls -t bin/dist/buildstation-*-windows-amd64.msi 2>/dev/null | head -1)}
[ -n "$msi" ] && [ -f "$msi" ] || { echo "FAIL: no MSI: run make package first"; exit 1; }
msi=$(cd "$(dirname "$msi")" && pwd)/$(basename "$msi")
old=${2:-}
if [ -n "$old" ]; then
  [ -f "$old" ] || { echo "FAIL: no old MSI at $old (make package-check builds one)"; exit 1; }
  old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
fi
want=$(bash scripts/version.sh)
wantmsi=$(bash scripts/version.sh msi)
work=$(mktemp -d "${TMPDIR:-/tmp}/msi-smoke.XXXXXX")
export WINEPREFIX=$work/prefix WINEDEBUG=-all
failed=0 pids=()
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
wine_run() { timeout 600 bash "$root/.ci/wine-run.sh" "$@"; }
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wineserver_bin=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
  [ -x "$wineserver_bin" ] && "$wineserver_bin" -k 2>/dev/null
  if [ -n "${MSI_SMOKE_KEEP:-}" ]; then echo "msi-smoke: kept $work (the msiexec logs, the prefixes)"; else rm -rf "$work"; fi
}
trap cleanup EXIT
winpath() { printf 'Z:%s' "${1//\//\\}"; }
# readlog: an msiexec log as text (Windows writes UTF-16, Wine 8 ANSI).
readlog() {
  if [ "$(head -c2 "$1" 2>/dev/null | od -An -tx1 | tr -d ' ')" = fffe ]; then
    iconv -f UTF-16LE -t UTF-8 "$1" | tr -d '\r'
  else
    tr -d '\r' <"$1" 2>/dev/null
  fi
}
# products: how many products named Build Station are registered (per
# user, per machine, and in the 32-bit view a 32-bit package lands in).
products() {
  local n=0 k
  for k in 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall' 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' 'HKLM\Software\Wow6432Node\Microsoft\Windows\CurrentVersion\Uninstall'; do
    n=$((n + $(wine_run reg query "$k" /s 2>/dev/null | tr -d '\r' | grep -c 'DisplayName.*Build Station')))
  done
  echo "$n"
}
# tasks: the logon tasks Wine holds (its Task Scheduler keeps each as a
# file in system32\Tasks; its schtasks /query answers 0 for any name).
# pe_version: an exe's own file version (its VS_FIXEDFILEINFO), which
# Windows Installer compares with the File table's on an upgrade.
pe_version() {
  local off
  off=$(LC_ALL=C grep -obUaP '\xbd\x04\xef\xfe' "$1" | head -1 | cut -d: -f1)
  [ -n "$off" ] || return 0
  od -An -tu2 -j $((off + 8)) -N 8 "$1" | awk '{ print $2 "." $1 "." $4 "." $3 }'
}
tasks() {
  local t
  for t in "$WINEPREFIX"/drive_c/windows/system32/tasks/BuildStation*; do
    [ -e "$t" ] && basename "$t"
  done
  true
}
wineserver_bin=$(command -v wineserver || echo /usr/lib/wine/wineserver64)

# Each table is read whole before grep looks at it: with pipefail, grep
# -q leaving early would fail msiinfo (SIGPIPE) and the check with it.
props=$(msiinfo export "$msi" Property | tr -d '\r')
suminfo=$(msiinfo suminfo "$msi")
if grep -q $'BuildStationShortcut\t{9F4C2855-9F79-4B39-A8D0-E1D42DE1D5F3}, 5\tdev.buildstation.app' <<<"$(msiinfo export "$msi" MsiShortcutProperty 2>/dev/null)"; then
  pass "the Start-menu shortcut carries the AUMID dev.buildstation.app (MsiShortcutProperty)"
else
  fail "the MSI has no AUMID for its shortcut"
fi
if grep -q $'^ALLUSERS\t2' <<<"$props" && grep -qi 'word count: 10' <<<"$suminfo"; then
  pass "per-user package (ALLUSERS=2, MSIINSTALLPERUSER=1; no elevation)"
else
  grep -q $'^MSIINSTALLPERUSER\t1' <<<"$props" && pass "per-user package (MSIINSTALLPERUSER=1)" || fail "the package is not per-user"
fi

if grep -q 'Template: x64;1033' <<<"$suminfo"; then
  pass "x64 package (template x64;1033)"
else
  fail "the package's template is $(sed -n 's/^Template: //p' <<<"$suminfo"), want x64;1033"
fi
if grep -q $'^ARPPRODUCTICON\tbuildstation.ico' <<<"$props" && grep -q 'Icon.buildstation.ico' <<<"$(msiinfo streams "$msi")"; then
  pass "Apps & features shows the app's icon (ARPPRODUCTICON)"
else
  fail "no ARPPRODUCTICON (or no icon stream)"
fi
pv=$(sed -n 's/^ProductVersion\t//p' <<<"$props")
[ "$pv" = "$wantmsi" ] && pass "ProductVersion $pv (x.y.z.build)" || fail "ProductVersion '$pv', want $wantmsi"
files=$(msiinfo export "$msi" File | tr -d '\r')
for f in buildstation.exe buildstation-app.exe buildstationw.exe; do
  # By its FileName (short|long), as its key holds no '-'.
  fv=$(awk -F'\t' -v f="$f" '$3 == f || $3 ~ ("[|]" f "$") { print $5 }' <<<"$files")
  [ "$fv" = "$wantmsi" ] && pass "File table: $f version $fv" || fail "File table: $f version '$fv', want $wantmsi (an upgrade may keep the old file)"
done
up=$(msiinfo export "$msi" Upgrade | tr -d '\r' | awk -F'\t' '$7 == "WIX_UPGRADE_DETECTED" { print $3 " " $5 }')
[ "$up" = "$wantmsi 513" ] && pass "upgrade row: up to $wantmsi inclusive (an rc and its release upgrade in place)" || fail "upgrade row '$up', want '$wantmsi 513' (VersionMax inclusive)"
seq=$(msiinfo export "$msi" InstallExecuteSequence | tr -d '\r')
if grep -q $'^RemoveAutostart\tREMOVE="ALL" AND NOT UPGRADINGPRODUCTCODE' <<<"$seq"; then
  pass "service uninstall runs on a real uninstall only (NOT UPGRADINGPRODUCTCODE)"
else
  fail "RemoveAutostart's condition: $(grep RemoveAutostart <<<"$seq")"
fi
# The order wixl wrote (it places an After= action after the last one it
# saw, so the .wxs numbers each): pause before any file is touched,
# service uninstall while the files are still there, the old product
# removed after the new one is in, resume last.
at() { awk -F'\t' -v a="$1" '$1 == a { print $3 }' <<<"$seq"; }
order() { # order A B: A's sequence is before B's
  local a b
  a=$(at "$1") b=$(at "$2")
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && pass "$1 ($a) runs before $2 ($b)" || fail "$1 (${a:-absent}) must run before $2 (${b:-absent})"
}
order PauseExe PauseRunning
order PauseRunning InstallInitialize
order RemoveAutostart RemoveFiles
order InstallFinalize RemoveExistingProducts
order RemoveExistingProducts ResumeRunning
ca=$(msiinfo export "$msi" CustomAction | tr -d '\r')
for a in PauseRunning ResumeRunning; do
  t=$(awk -F'\t' -v a="$a" '$1 == a { print $2 }' <<<"$ca")
  [ -n "$t" ] && [ $((t & 1024)) = 0 ] && pass "$a is immediate (type $t): it runs where it is sequenced, under Wine too" || fail "$a's type is '${t:-absent}', want an immediate action (no 1024 bit)"
done

if [ -n "${MSI_TABLES_ONLY:-}" ]; then
  exit $failed # the release's Linux job: no Wine there
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
# installed: the files in the install folder, one a line, sorted.
installed() { (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'); }
exes="buildstation-app.exe buildstation.exe buildstationw.exe"
if [ -n "$dir" ] && [ "$(installed "$dir")" = "$exes" ]; then
  pass "the three exes and nothing else in the user's programs folder (${dir#"$users"/}: $exes)"
else
  fail "AppData/Local/Programs/Build Station holds '$( [ -n "$dir" ] && installed "$dir")', want '$exes'"
fi
if [ -n "$(find "$users" -path '*Start Menu/Programs/Build Station.lnk')" ]; then
  pass "Start-menu shortcut"
else
  fail "no Start-menu shortcut"
fi
handler=$(wine_run reg query 'HKCU\Software\Classes\buildstation\shell\open\command' 2>/dev/null | tr -d '\r')
if grep -q 'buildstationw.exe" open "%1"' <<<"$handler"; then
  pass "buildstation:// handler runs the installed buildstationw.exe open"
else
  fail "no buildstation:// handler: $handler"
fi
if [ -n "$dir" ]; then
  for exe in $exes; do
    v=$(wine_run "$dir/$exe" --version 2>&1 | tr -d '\r')
    if [ "$v" = "buildstation $want" ]; then pass "installed $exe --version: $v"; else fail "installed $exe --version said '$v', want 'buildstation $want'"; fi
    pv=$(pe_version "$dir/$exe")
    [ "$pv" = "$wantmsi" ] && pass "installed $exe carries file version $pv, as the File table says" || fail "installed $exe carries file version '${pv:-none}', want $wantmsi (the File table's)"
  done
  # The command line hands `board` (SQLite, PostgreSQL: not linked in it)
  # to buildstation-app.exe beside it; alone in another folder it cannot,
  # and says where the verb lives.
  bhelp=$(wine_run "$dir/buildstation.exe" board --help 2>&1 | tr -d '\r')
  mkdir -p "$work/alone"
  cp "$dir/buildstation.exe" "$work/alone/"
  alone=$(wine_run "$work/alone/buildstation.exe" board --help 2>&1 | tr -d '\r')
  if grep -qi 'usage' <<<"$bhelp" && grep -q 'board' <<<"$bhelp" && grep -q 'no buildstation-app beside this program' <<<"$alone"; then
    pass "installed buildstation.exe board --help is answered by buildstation-app.exe ($(grep -m1 -i usage <<<"$bhelp"); the front alone: $(head -1 <<<"$alone"))"
  else
    fail "buildstation.exe board --help: '$bhelp'; the front alone: '$alone'"
  fi
  home=$work/home
  mkdir -p "$home"
  dry=$(wine_run "$dir/buildstation.exe" service install --dry-run --home "$(winpath "$home")" 2>&1 | tr -d '\r')
  if grep -qi 'buildstationw.exe' <<<"$dry" && grep -qi 'Build Station' <<<"$dry"; then
    pass "installed buildstation.exe service install --dry-run names the installed buildstationw.exe"
  else
    fail "service install --dry-run: $dry"
  fi
  # The opt-in SCM service runs the whole program itself, not the front.
  dry=$(wine_run "$dir/buildstation.exe" service install --system --dry-run --home "$(winpath "$home")" 2>&1 | tr -d '\r')
  if grep -q 'buildstation-app.exe" service run' <<<"$dry"; then
    pass "service install --system --dry-run: the SCM service runs buildstation-app.exe"
  else
    fail "service install --system --dry-run: $dry"
  fi
fi

echo "msi-smoke: msiexec /x $(basename "$msi") /qn"
if wine_run msiexec /x "$(winpath "$msi")" /qn /l*v "$(winpath "$work/uninstall.log")" >/dev/null 2>&1; then
  pass "msiexec /x /qn"
else
  fail "msiexec /x failed"
fi
if grep -q 'Action start [0-9:]*: RemoveAutostart\.' <<<"$(readlog "$work/uninstall.log")"; then
  pass "uninstall ran buildstation-app.exe service uninstall (the autostart)"
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
[ -n "$old" ] || exit $failed

# The upgrade, in a second fresh prefix.
"$wineserver_bin" -k 2>/dev/null
export WINEPREFIX=$work/prefix-upgrade
users=$WINEPREFIX/drive_c/users
oldv=$(msiinfo export "$old" Property | sed -n 's/^ProductVersion\t//p' | tr -d '\r')
echo "msi-smoke: upgrade from $(basename "$old") ($oldv): making a fresh Wine prefix"
wine_run cmd /c exit 0 >/dev/null 2>&1
snapshot "$work/before-upgrade.txt"
runkey='HKCU\Software\Microsoft\Windows\CurrentVersion\Run'
if wine_run msiexec /i "$(winpath "$old")" /qn /l*v "$(winpath "$work/old.log")" >/dev/null 2>&1; then
  pass "old MSI installed (msiexec /i exit 0)"
else
  fail "old MSI: msiexec /i failed"
fi
dir=$(find "$users" -maxdepth 5 -type d -path '*AppData/Local/Programs/Build Station' | head -1)
[ -n "$dir" ] || { fail "the old MSI installed no Build Station folder"; exit 1; }
oldsaid=$(wine_run "$dir/buildstation.exe" --version 2>&1 | tr -d '\r')
echo "      the old buildstation.exe says: $oldsaid"
# Wine's first schtasks /create in a new prefix may fail (as in
# .ci/windows-smoke.sh), and under load Wine's Task Scheduler may never
# answer: once more, each try given 2 minutes, before falling back.
svc_install() { timeout 120 bash "$root/.ci/wine-run.sh" "$dir/buildstation.exe" service install 2>&1; }
if out=$(svc_install) || out=$(svc_install); then
  tasksbefore=$(tasks)
  pass "old: service install (logon task: ${tasksbefore:-none in the task folder of Wine})"
  autostart=full
  [ -n "$tasksbefore" ] || autostart=runvalue
else
  echo "      service install under Wine: $(tr -d '\r' <<<"$out" | tail -3 | tr '\n' ' ')"
  echo "      (Wine 8's schtasks /create /xml exits 1 and the install rolls back; the Run value is written as service install writes it)"
  wine_run reg add "$runkey" /v BuildStation /t REG_SZ /d "\"$(winpath "$dir")\\buildstationw.exe\" --hidden" /f >/dev/null 2>&1
  autostart=runvalue
fi
runbefore=$(wine_run reg query "$runkey" /v BuildStation 2>/dev/null | tr -d '\r' | grep BuildStation)
[ -n "$runbefore" ] && pass "before the upgrade: the Run value ($runbefore)" || fail "no Run value before the upgrade"
# A running station, from the old program, on the default home.
wine_run "$dir/buildstationw.exe" daemon >"$work/old-station.log" 2>&1 &
pids+=($!)
stationjson=
for _ in $(seq 1 240); do
  stationjson=$(find "$users" -maxdepth 5 -path '*AppData/Roaming/BuildStation/station.json' 2>/dev/null | head -1)
  [ -n "$stationjson" ] && [ -s "$stationjson" ] && break
  sleep 0.5 # polling a file the station writes
done
oldpid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$stationjson" 2>/dev/null)
[ -n "$oldpid" ] && pass "a station runs from the old program (pid $oldpid)" || fail "the old station never started: $(tail -3 "$work/old-station.log")"

echo "msi-smoke: msiexec /i $(basename "$msi") /qn over $(basename "$old")"
t0=$SECONDS
wine_run msiexec /i "$(winpath "$msi")" /qn /l*v "$(winpath "$work/upgrade.log")" >/dev/null 2>&1
code=$?
ulog=$(readlog "$work/upgrade.log")
if [ "$code" = 0 ]; then
  pass "upgrade: msiexec /i exit 0 ($((SECONDS - t0)) s)"
else
  fail "upgrade: msiexec /i exited $code: $(grep -i 'error\|return value 3' <<<"$ulog" | tail -5)"
fi
products=$(products)
[ "$products" = 1 ] && pass "one Build Station product after the upgrade" || fail "$products Build Station products after the upgrade, want 1"
for exe in $exes; do
  v=$(wine_run "$dir/$exe" --version 2>&1 | tr -d '\r')
  [ "$v" = "buildstation $want" ] && pass "after the upgrade $exe --version: $v" || fail "after the upgrade $exe --version said '$v', want 'buildstation $want'"
done
# No stale file: what the old MSI installed and the new one does not ship
# is gone (an old release's buildstation.exe was the whole program; it is
# now the command line, replaced in place).
have=$(installed "$dir")
[ "$have" = "$exes" ] && pass "after the upgrade the install folder holds the three exes and nothing else" || fail "after the upgrade the install folder holds '$have', want '$exes'"
runafter=$(wine_run reg query "$runkey" /v BuildStation 2>/dev/null | tr -d '\r' | grep BuildStation)
[ -n "$runafter" ] && [ "$runafter" = "$runbefore" ] && pass "the upgrade kept the Run value" || fail "the upgrade lost the Run value (before: $runbefore; after: ${runafter:-none})"
handler=$(wine_run reg query 'HKCU\Software\Classes\buildstation\shell\open\command' 2>/dev/null | tr -d '\r')
grep -q 'buildstationw.exe" open "%1"' <<<"$handler" && pass "the upgrade kept the buildstation:// handler" || fail "the upgrade lost the buildstation:// handler"
if [ "$autostart" = full ]; then
  [ -n "$(tasks)" ] && pass "the upgrade kept the logon task ($(tasks))" || fail "the upgrade lost the logon task ($tasksbefore before)"
fi
newpid=
for _ in $(seq 1 240); do
  newpid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$stationjson" 2>/dev/null)
  [ -n "$newpid" ] && [ "$newpid" != "$oldpid" ] && wine_run "$dir/buildstation.exe" status >/dev/null 2>&1 && break
  newpid=
  sleep 0.5 # polling a file the station writes
done
if grep -q 'Action start [0-9:]*: PauseRunning\.' <<<"$ulog"; then
  pass "the upgrade ran PauseRunning (service pause) before the files were replaced"
else
  fail "the upgrade never ran PauseRunning (service pause): $(grep -i 'PauseRunning' <<<"$ulog" | head -3)"
fi
[ -n "$newpid" ] && pass "the station was started again from the new program (pid $oldpid → $newpid)" || fail "no station answers after the upgrade (the old one was pid $oldpid)"

echo "msi-smoke: msiexec /x $(basename "$msi") /qn after the upgrade"
if wine_run msiexec /x "$(winpath "$msi")" /qn /l*v "$(winpath "$work/upgrade-uninstall.log")" >/dev/null 2>&1; then
  pass "after the upgrade: msiexec /x exit 0"
else
  fail "after the upgrade: msiexec /x failed"
fi
timeout 60 "$wineserver_bin" -w 2>/dev/null
snapshot "$work/after-upgrade.txt"
left=$(comm -13 "$work/before-upgrade.txt" "$work/after-upgrade.txt" | grep -iv 'fontconfig\|/Temp$\|wine_gecko\|wine_mono' | grep -v 'AppData/Roaming/BuildStation' || true)
[ -z "$left" ] && pass "after the upgrade and the uninstall no file of the install is left (the home stays)" || fail "left behind: $left"
wine_run reg query "$runkey" /v BuildStation >/dev/null 2>&1 && fail "the uninstall left the Run value" || pass "the uninstall removed the Run value"
wine_run reg query 'HKCU\Software\Classes\buildstation' >/dev/null 2>&1 && fail "the uninstall left the buildstation:// key" || pass "the uninstall removed the buildstation:// key"
exit $failed
