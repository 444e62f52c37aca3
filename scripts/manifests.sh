#!/usr/bin/env bash
# manifests: the Homebrew cask and the winget manifests of a release, filled
# from packaging/homebrew and packaging/winget with the version and the
# checksums of the built artifacts, into $DIST/manifests.
#
#   VERSION=0.3.0 bash scripts/manifests.sh [all|winget|homebrew]
#                                               (DIST defaults to bin/dist)
#
# all (the default, what the release's publish job asks) needs both the
# MSI and the .dmg; winget the MSI alone (the windows-install job, before
# the macOS job's .dmg is at hand), homebrew the .dmg alone. An input that
# is missing is refused with its path and a non-zero exit, and nothing in
# $DIST/manifests is touched: a release never ships a manifest short of
# one package manager without saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${DIST:-bin/dist}
VERSION=$(bash scripts/version.sh)
what=${1:-all}
out=$DIST/manifests
msi=$DIST/buildstation-$VERSION-windows-amd64.msi
dmg=$DIST/buildstation-$VERSION-macos-universal.dmg
case "$what" in
  all) need=("$msi" "$dmg") ;;
  winget) need=("$msi") ;;
  homebrew) need=("$dmg") ;;
  *) echo "manifests: unknown kind $what; use all, winget or homebrew" >&2; exit 2 ;;
esac
for f in "${need[@]}"; do
  [ -f "$f" ] || { echo "manifests: no $f: build it first (make package; the .dmg on a Mac), or set VERSION to the artifacts' version" >&2; exit 1; }
done
sha() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }
fill() { sed -e "s|@VERSION@|$VERSION|g" -e "s|@SHA256_MSI@|${msi_sha:-}|g" -e "s|@SHA256_DMG@|${dmg_sha:-}|g" "$1"; }
mkdir -p "$out"
if [ "$what" != homebrew ]; then
  msi_sha=$(sha "$msi")
  rm -f "$out"/BuildStation.BuildStation*.yaml
  for t in packaging/winget/*.yaml.tmpl; do
    fill "$t" >"$out/$(basename "${t%.tmpl}")"
  done
  echo "manifests: winget manifests for $VERSION in $out"
fi
if [ "$what" != winget ]; then
  dmg_sha=$(sha "$dmg")
  fill packaging/homebrew/buildstation.rb.tmpl >"$out/buildstation.rb"
  echo "manifests: Homebrew cask for $VERSION in $out/buildstation.rb"
fi
