#!/usr/bin/env bash
# linux-pkg-check: what `make package` made for Linux, as a user meets it.
#
#   bash scripts/linux-pkg-check.sh      (after make package; DIST=bin/dist)
#
# 1. The .deb, unpacked into a throwaway root (dpkg -x: no root rights, no
#    chroot): its control names the package and version, /usr/bin holds
#    both executables (buildstation, the static command line, and
#    buildstation-app, the station and the tray), the desktop entries (the
#    app, the buildstation:// handler) are valid and name the icon, which
#    is a 256x256 PNG in hicolor; both unpacked executables answer
#    --version with the packaged version, and the command line hands
#    `board status` to the app.
# 2. The .tar.gz, unpacked: the same of its two executables, with the
#    version scripts/version.sh gives (the tag, or VERSION); the desktop
#    entries, the icon and INSTALL.txt are there.
# 3. The .deb's libc6 dependency covers buildstation-app's real need (its
#    newest GLIBC_x.y symbol version, read with objdump -T).
# 4. Every file name docs/install.md prints (VERSION: the version;
#    DEBVERSION: the .deb's, where a pre-release's - is ~) is one that
#    was built (the .dmg is left to the Mac).
# Prints PASS/FAIL lines; exits non-zero on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
DIST=${DIST:-bin/dist}
want=$(bash scripts/version.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/linux-pkg.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

deb=$(ls -t "$DIST"/buildstation_*_amd64.deb 2>/dev/null | head -1)
tgz=$(ls -t "$DIST"/buildstation-*-linux-amd64.tar.gz 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: no .deb in $DIST: run make package first"; exit 1; }
[ -n "$tgz" ] || { echo "FAIL: no .tar.gz in $DIST: run make package first"; exit 1; }

# entries ROOT WHAT: the desktop entries under ROOT/share/applications.
entries() {
  local apps=$1/share/applications
  if grep -qx 'Exec=buildstation' "$apps/buildstation.desktop" 2>/dev/null &&
    grep -qx 'Icon=buildstation' "$apps/buildstation.desktop" &&
    grep -qx 'MimeType=x-scheme-handler/buildstation;' "$apps/buildstation-open.desktop" 2>/dev/null &&
    grep -qx 'Exec=buildstation open %u' "$apps/buildstation-open.desktop"; then
    pass "$2: the app's desktop entry and the buildstation:// handler's"
  else
    fail "$2: desktop entries missing or wrong in $apps"
  fi
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$apps"/*.desktop && pass "$2: desktop-file-validate" || fail "$2: desktop-file-validate"
  fi
  if file "$1/share/icons/hicolor/256x256/apps/buildstation.png" 2>/dev/null | grep -q 'PNG image data, 256 x 256'; then
    pass "$2: the icon, a 256x256 PNG in hicolor"
  else
    fail "$2: no 256x256 icon at share/icons/hicolor/256x256/apps/buildstation.png"
  fi
}

# faces DIR WHAT: both executables in DIR print the version; the command
# line links no cgo (static), and hands a verb it does not link (board
# status, on a throwaway home) to buildstation-app beside it.
faces() {
  local v f home
  for f in buildstation buildstation-app; do
    v=$("$1/$f" --version 2>&1)
    [ "$v" = "buildstation $want" ] && pass "$2's $f --version: $v" || fail "$2's $f --version said '$v', want 'buildstation $want'"
  done
  if file "$1/buildstation" | grep -q 'statically linked'; then
    pass "$2's buildstation (the command line) is static: no cgo, no UI"
  else
    fail "$2's buildstation is not static: $(file -b "$1/buildstation")"
  fi
  home=$(mktemp -d "$work/home.XXXXXX")
  if "$1/buildstation" --home "$home" board status 2>&1 | grep -q 'embedded board'; then
    pass "$2's buildstation hands board status to buildstation-app"
  else
    fail "$2's buildstation board status: $("$1/buildstation" --home "$home" board status 2>&1 | tail -1)"
  fi
}

ctl=$(dpkg-deb -f "$deb" Package Version Architecture Depends | tr '\n' ' ')
debv=$(dpkg-deb -f "$deb" Version)
# nfpm writes a pre-release as x.y.z~pre (it sorts before x.y.z).
if [[ $ctl == *"Package: buildstation"* && ${debv/\~/-} == "$want" ]]; then pass ".deb control: $ctl"; else fail ".deb control: $ctl (want version $want)"; fi
dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
[ -x "$work/root/usr/bin/buildstation" ] && pass ".deb installs /usr/bin/buildstation" || fail ".deb has no /usr/bin/buildstation"
[ -x "$work/root/usr/bin/buildstation-app" ] && pass ".deb installs /usr/bin/buildstation-app" || fail ".deb has no /usr/bin/buildstation-app"
entries "$work/root/usr" ".deb"
faces "$work/root/usr/bin" ".deb"

mkdir -p "$work/tgz" && tar -C "$work/tgz" -xzf "$tgz" || fail "tar -xzf $tgz"
top=$(ls "$work/tgz")
faces "$work/tgz/$top" ".tar.gz"
entries "$work/tgz/$top" ".tar.gz"
[ -s "$work/tgz/$top/INSTALL.txt" ] && pass ".tar.gz has INSTALL.txt" || fail ".tar.gz has no INSTALL.txt"
need=$(objdump -T "$work/root/usr/bin/buildstation-app" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
dep=$(dpkg-deb -f "$deb" Depends | sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p')
if [ -z "$need" ]; then
  fail "objdump -T found no GLIBC symbol version in the .deb's binary"
elif [ -n "$dep" ] && [ "$(printf '%s\n%s\n' "$need" "$dep" | sort -V | tail -1)" = "$dep" ]; then
  pass ".deb depends on libc6 (>= $dep); the binary needs GLIBC_$need"
else
  fail ".deb depends on '$(dpkg-deb -f "$deb" Depends)', but the binary needs GLIBC_$need: say libc6 (>= $need) in packaging/linux/nfpm.yaml"
fi

for pat in $(grep -o '`buildstation[-_][A-Za-z0-9_.-]*\.\(tar\.gz\|deb\|msi\|dmg\|zip\)`' docs/install.md | tr -d '`' | sort -u); do
  name=${pat//DEBVERSION/$debv}
  name=${name//VERSION/$want}
  case $name in
    *.dmg | *.zip) continue ;; # built on a Mac
    *.msi) [ -n "$(ls "$DIST"/*.msi 2>/dev/null)" ] || continue ;;
  esac
  [ -f "$DIST/$name" ] && pass "docs/install.md's $pat is what is built ($name)" || fail "docs/install.md prints $pat, but $DIST has no $name ($(cd "$DIST" && ls buildstation[-_]* 2>/dev/null | tr '\n' ' '))"
done
exit $failed
