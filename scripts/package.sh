#!/usr/bin/env bash
# package: what `make package` ships, into $DIST (bin/dist). Each artifact's
# name carries the version (scripts/version.sh: the tag, or VERSION).
#
#   Linux (on Linux):
#     buildstation-VERSION-linux-amd64.tar.gz   the binary with the tray, the
#       desktop entries (the app, and the buildstation:// handler) and the icon
#     buildstation_VERSION_amd64.deb            the same, as a package (nfpm)
#
#   Windows (from any OS with mingw; the MSI needs msitools' wixl):
#     buildstationw.exe, the GUI face with the icon (fyne package), which
#     the logon task, the Run key, the link handler and toast clicks start;
#     buildstation.exe, the console face, for the CLI (`session attach`
#     needs a console); both side by side (`service install` finds one from
#     the other), and
#     buildstation-VERSION-windows-amd64.msi    a per-user installer of both
#       (packaging/windows/buildstation.wxs says what it installs)
#
#   macOS (on a Mac): Build Station.app, with CFBundleURLTypes
#   (buildstation:// links) and LSUIElement (a menu-bar app, no Dock icon)
#   added to its Info.plist, universal (arm64 + amd64) when both build, then
#   signed, as a .zip and a .dmg:
#     BUILDSTATION_SIGN_IDENTITY="Developer ID Application: Name (TEAMID)"
#       signs with that identity (hardened runtime, secure timestamp), and
#     BUILDSTATION_NOTARY_PROFILE=profile (made once with
#       `xcrun notarytool store-credentials profile ...`) also notarizes
#       and staples the ticket;
#     neither: an ad-hoc signature, which runs on this Mac but which
#       Gatekeeper blocks on another one when downloaded, and which changes
#       with every build (privacy grants are asked again). The file
#       $DIST/macos-signing.txt says which, for the release notes.
#
# PACKAGE_ONLY=linux|windows|macos makes one OS's artifacts alone (what
# each release runner asks for).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-bin/dist}
FYNE_TOOLS=${FYNE_TOOLS:-fyne.io/tools/cmd/fyne@v1.7.4}
NFPM=${NFPM:-github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2}
ONLY=${PACKAGE_ONLY:-}
VERSION=$(bash scripts/version.sh)
NUMERIC=$(bash scripts/version.sh numeric)
export VERSION
ldflags="-X github.com/buildstation/buildstation/cli.Version=$VERSION"
say() { echo "package: $*"; }
want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }
mkdir -p "$DIST/.bin"
DIST=$(cd "$DIST" && pwd)
say "version $VERSION into $DIST"

fyne_tool() {
  if [ ! -x "$DIST/.bin/fyne" ]; then
    say "installing the fyne packaging tool ($FYNE_TOOLS)"
    GOBIN=$DIST/.bin GOOS= GOARCH= CGO_ENABLED= "$GO" install "$FYNE_TOOLS"
  fi
  # fyne package -release bumps Build in FyneApp.toml and reformats it: keep ours.
  cp FyneApp.toml "$DIST/.FyneApp.toml"
  trap 'cp "$DIST/.FyneApp.toml" FyneApp.toml' EXIT
}

package_linux() {
  local stage=$DIST/.linux name=buildstation-$VERSION-linux-amd64
  rm -rf "$stage" && mkdir -p "$stage"
  say "the Linux binary with the tray (cgo: the first build compiles Fyne's C parts and takes several minutes)"
  CGO_ENABLED=1 "$GO" build -trimpath -ldflags "$ldflags" -o "$stage/buildstation" .
  say "$name.tar.gz"
  mkdir -p "$stage/$name/share/applications" "$stage/$name/share/icons/hicolor/256x256/apps"
  cp "$stage/buildstation" "$stage/$name/"
  cp packaging/linux/*.desktop "$stage/$name/share/applications/"
  cp assets/icon.png "$stage/$name/share/icons/hicolor/256x256/apps/buildstation.png"
  cp packaging/linux/INSTALL.txt "$stage/$name/"
  tar -C "$stage" -czf "$DIST/$name.tar.gz" "$name"
  say "buildstation_${VERSION}_amd64.deb (nfpm)"
  # nfpm expands ${VERSION} but not a path in contents: put ${DIST} in first.
  sed "s|\${DIST}|$DIST|g" packaging/linux/nfpm.yaml >"$stage/nfpm.yaml"
  "$GO" run "$NFPM" package -f "$stage/nfpm.yaml" -p deb -t "$DIST/" >/dev/null
  ls "$DIST"/buildstation_*_amd64.deb >/dev/null
}

package_windows() {
  if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    if [ "$(uname -s)" = Darwin ]; then
      say "no Windows exes: mingw is not installed (brew install mingw-w64)"
      return 0
    fi
    echo "package: the Windows build needs mingw: apt-get install -y gcc-mingw-w64-x86-64" >&2
    exit 1
  fi
  fyne_tool
  say "buildstationw.exe, the GUI face (cgo with mingw: the first build takes several minutes)"
  CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 "$DIST/.bin/fyne" package -os windows -release --app-version "$NUMERIC"
  mv "Build Station.exe" "$DIST/buildstationw.exe"
  say "buildstation.exe, the console face"
  CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 GOOS=windows GOARCH=amd64 "$GO" build -trimpath -ldflags "$ldflags" -o "$DIST/buildstation.exe" .
  if ! command -v wixl >/dev/null; then
    echo "package: the MSI needs msitools' wixl: apt-get install -y wixl msitools" >&2
    exit 1
  fi
  local stage=$DIST/.msi msi=$DIST/buildstation-$VERSION-windows-amd64.msi
  rm -rf "$stage" && mkdir -p "$stage"
  cp packaging/windows/buildstation.wxs packaging/windows/MsiShortcutProperty.idt "$DIST/buildstation.exe" "$DIST/buildstationw.exe" "$stage/"
  say "$(basename "$msi") (wixl; per-user, no admin)"
  (cd "$stage" && wixl -D Version="$NUMERIC" -o installer.msi buildstation.wxs)
  # The Start-menu shortcut's AUMID: a table wixl cannot write.
  (cd "$stage" && msibuild installer.msi -i MsiShortcutProperty.idt)
  mv "$stage/installer.msi" "$msi"
  rm -rf "$stage"
  say "$DIST/buildstation.exe (console: the CLI), $DIST/buildstationw.exe (GUI: tray, logon task, links), $msi"
}

package_macos() {
  if [ "$(uname -s)" != Darwin ]; then
    say "the macOS artifacts (Build Station.app in a .dmg and a .zip) need a Mac: cgo for darwin needs Xcode's clang;"
    say "  run make package there (the release workflow does, on macos-latest)"
    return 0
  fi
  fyne_tool
  local app="Build Station.app" arch
  rm -rf "$DIST/.mac" && mkdir -p "$DIST/.mac"
  for arch in arm64 amd64; do
    say "Build Station.app for $arch (cgo)"
    GOARCH=$arch CGO_ENABLED=1 "$DIST/.bin/fyne" package -os darwin -release --app-version "$NUMERIC"
    mv "$app" "$DIST/.mac/$arch.app"
  done
  # One universal app: the arm64 bundle with both binaries joined by lipo.
  mv "$DIST/.mac/arm64.app" "$app"
  bin=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleExecutable' "$app/Contents/Info.plist")
  lipo -create -output "$DIST/.mac/universal" "$app/Contents/MacOS/$bin" "$DIST/.mac/amd64.app/Contents/MacOS/$bin"
  mv "$DIST/.mac/universal" "$app/Contents/MacOS/$bin"
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
    how="ad-hoc signed: Gatekeeper blocks it when downloaded; open it once with right-click > Open (or run: xattr -dr com.apple.quarantine \"/Applications/Build Station.app\")"
  fi
  codesign --verify --deep --strict "$app"
  echo "$how" >"$DIST/macos-signing.txt"
  rm -rf "${DIST:?}/$app" "$DIST/.mac"
  mv "$app" "$DIST/"
  ditto -c -k --keepParent "$DIST/$app" "$DIST/buildstation-$VERSION-macos-universal.zip"
  hdiutil create -volname "Build Station" -srcfolder "$DIST/$app" -ov -format UDZO "$DIST/buildstation-$VERSION-macos-universal.dmg" >/dev/null
  say "$DIST/$app, .zip and .dmg (universal; buildstation:// links, no Dock icon; $how)"
}

if want linux && [ "$(uname -s)" = Linux ]; then package_linux; fi
if want windows; then package_windows; fi
if want macos; then package_macos; fi
