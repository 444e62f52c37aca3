#!/usr/bin/env bash
# manifests: the Homebrew cask and the winget manifests of a release, filled
# from packaging/homebrew and packaging/winget with the version and the
# checksums of the built artifacts, into $DIST/manifests.
#
#   VERSION=0.3.0 bash scripts/manifests.sh      (DIST defaults to bin/dist)
#
# An artifact that is missing (the .dmg when no Mac built it) leaves its
# manifest out, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${DIST:-bin/dist}
VERSION=$(bash scripts/version.sh)
out=$DIST/manifests
rm -rf "$out" && mkdir -p "$out"
sha() { sha256sum "$1" | cut -d' ' -f1; }
fill() { sed -e "s|@VERSION@|$VERSION|g" -e "s|@SHA256_MSI@|${msi_sha:-}|g" -e "s|@SHA256_DMG@|${dmg_sha:-}|g" "$1"; }
msi=$DIST/buildstation-$VERSION-windows-amd64.msi
dmg=$DIST/buildstation-$VERSION-macos-universal.dmg
if [ -f "$msi" ]; then
  msi_sha=$(sha "$msi")
  for t in packaging/winget/*.yaml.tmpl; do
    fill "$t" >"$out/$(basename "${t%.tmpl}")"
  done
  echo "manifests: winget manifests for $VERSION in $out"
else
  echo "manifests: no $msi: no winget manifests"
fi
if [ -f "$dmg" ]; then
  dmg_sha=$(sha "$dmg")
  fill packaging/homebrew/buildstation.rb.tmpl >"$out/buildstation.rb"
  echo "manifests: Homebrew cask for $VERSION in $out/buildstation.rb"
else
  echo "manifests: no $dmg (built on a Mac): no Homebrew cask"
fi
