#!/usr/bin/env bash
# package: what `make package` ships, into $DIST (bin/dist):
#
#   Windows (from any OS with mingw): buildstationw.exe, the GUI face with
#   the icon and version (fyne package), which the logon task, the Run key,
#   the link handler and toast clicks start; and buildstation.exe, the
#   console face, for the CLI (`session attach` needs a console). Keep them
#   side by side: `service install` finds one from the other.
#
#   macOS (on a Mac): Build Station.app, with CFBundleURLTypes
#   (buildstation:// links) and LSUIElement (a menu-bar app, no Dock icon)
#   added to its Info.plist, then signed:
#     BUILDSTATION_SIGN_IDENTITY="Developer ID Application: Name (TEAMID)"
#       signs with that identity (hardened runtime, secure timestamp), and
#     BUILDSTATION_NOTARY_PROFILE=profile (made once with
#       `xcrun notarytool store-credentials profile ...`) also notarizes
#       and staples the ticket;
#     neither: an ad-hoc signature, which runs on this Mac but which
#       Gatekeeper blocks on another one when downloaded, and which changes
#       with every build (privacy grants are asked again).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-bin/dist}
FYNE_TOOLS=${FYNE_TOOLS:-fyne.io/tools/cmd/fyne@v1.7.4}
mkdir -p "$DIST/.bin"
GOBIN=$(cd "$DIST/.bin" && pwd) GOOS= GOARCH= CGO_ENABLED= "$GO" install "$FYNE_TOOLS"
fyne=$DIST/.bin/fyne
# fyne package -release bumps Build in FyneApp.toml and reformats it: keep ours.
cp FyneApp.toml "$DIST/.FyneApp.toml"
trap 'cp "$DIST/.FyneApp.toml" FyneApp.toml' EXIT

if command -v x86_64-w64-mingw32-gcc >/dev/null; then
  CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 "$fyne" package -os windows -release
  mv "Build Station.exe" "$DIST/buildstationw.exe"
  CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 GOOS=windows GOARCH=amd64 "$GO" build -o "$DIST/buildstation.exe" .
  echo "package: $DIST/buildstation.exe (console: the CLI) and $DIST/buildstationw.exe (GUI: tray, logon task, links)"
elif [ "$(uname -s)" = Darwin ]; then
  echo "package: no Windows exes: mingw is not installed (brew install mingw-w64)"
else
  echo "package: the Windows build needs mingw: apt-get install -y gcc-mingw-w64-x86-64" >&2
  exit 1
fi

if [ "$(uname -s)" != Darwin ]; then
  echo "package: the macOS app needs a Mac (cgo for darwin needs Xcode's clang): run make package there;"
  echo "         it adds platform/service/testdata/info-plist-additions.xml.golden to Info.plist and signs it"
  exit 0
fi
"$fyne" package -os darwin -release
app="Build Station.app"
plist="$app/Contents/Info.plist"
# The additions go just before the top dict's end.
awk 'FNR==NR { frag = frag $0 "\n"; next } /^<\/dict>/ && !done { printf "%s", frag; done=1 } { print }' \
  platform/service/testdata/info-plist-additions.xml.golden "$plist" >"$plist.new"
mv "$plist.new" "$plist"
plutil -lint "$plist"
if [ -n "${BUILDSTATION_SIGN_IDENTITY:-}" ]; then
  codesign --force --deep --options runtime --timestamp -s "$BUILDSTATION_SIGN_IDENTITY" "$app"
  how="signed by $BUILDSTATION_SIGN_IDENTITY"
  if [ -n "${BUILDSTATION_NOTARY_PROFILE:-}" ]; then
    zip="$DIST/.notarize.zip"
    ditto -c -k --keepParent "$app" "$zip"
    xcrun notarytool submit "$zip" --keychain-profile "$BUILDSTATION_NOTARY_PROFILE" --wait
    xcrun stapler staple "$app"
    rm -f "$zip"
    how="$how, notarized and stapled"
  else
    how="$how, not notarized (set BUILDSTATION_NOTARY_PROFILE)"
  fi
else
  codesign --force --deep -s - "$app"
  how="ad-hoc signed: runs on this Mac; Gatekeeper blocks a downloaded copy (set BUILDSTATION_SIGN_IDENTITY)"
fi
codesign --verify --deep --strict "$app"
rm -rf "${DIST:?}/$app"
mv "$app" "$DIST/"
echo "package: $DIST/$app (buildstation:// links, no Dock icon; $how)"
