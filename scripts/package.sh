#!/usr/bin/env bash
# package: what `make package` ships, into $DIST (bin/dist). Each artifact's
# name carries the version (scripts/version.sh: the tag, or VERSION).
#
#   Linux (on Linux):
#     buildstation-VERSION-linux-amd64.tar.gz   buildstation (the command
#       line: no cgo, no UI, it starts in a few milliseconds) and beside it
#       buildstation-app (the station and the tray, cgo; the command line
#       hands it the daemon, tray, demo, service and board verbs:
#       internal/faces), the desktop entries (the app, and the
#       buildstation:// handler) and the icon
#     buildstation_VERSION_amd64.deb            the same, as a package (nfpm)
#
#   Windows (from any OS with mingw; the MSI needs msitools' wixl):
#     buildstation.exe, the command line as on Linux (no cgo, no UI), which
#     hands the station's and the tray's verbs to buildstation-app.exe;
#     buildstation-app.exe, the whole program (cgo) as a console program;
#     buildstationw.exe, the same program as a GUI program with the icon
#     (fyne package), which the logon task, the Run key, the link handler
#     and toast clicks start (no console window); all three side by side
#     (`service install` finds the faces from any of them), each with a
#     version resource x.y.z.BUILD, and
#     buildstation-VERSION-windows-amd64.msi    a per-user installer of the
#       three (packaging/windows/buildstation.wxs says what it installs)
#
#   macOS (on a Mac): Build Station.app, universal (arm64 + amd64), put
#   together by packaging/macos/bundle.sh: Contents/MacOS/buildstation-app
#   (the station and the tray, cgo; the CFBundleExecutable, which the
#   Finder, the buildstation:// handler and the login item start) and
#   Contents/MacOS/buildstation (the command line, no cgo: what Homebrew's
#   cask links into its bin), with CFBundleURLTypes (buildstation:// links)
#   and LSUIElement (a menu-bar app, no Dock icon) in its Info.plist, then
#   signed, as a .zip and a .dmg:
#     BUILDSTATION_SIGN_IDENTITY="Developer ID Application: Name (TEAMID)"
#       signs with that identity (hardened runtime, secure timestamp), and
#     BUILDSTATION_NOTARY_PROFILE=profile (made once with
#       `xcrun notarytool store-credentials profile ...`) also notarizes
#       and staples the ticket;
#     neither: an ad-hoc signature, which runs on this Mac but which
#       Gatekeeper blocks on another one when downloaded (macOS 15 dropped
#       the right-click > Open bypass: System Settings > Privacy &
#       Security > Open Anyway), and which changes
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
BUILD=$(bash scripts/version.sh build)
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
    GOBIN=$DIST/.bin GOOS="" GOARCH="" CGO_ENABLED="" "$GO" install "$FYNE_TOOLS"
  fi
  # fyne package takes no -ldflags of ours. It reads them from GOFLAGS,
  # but builds twice on Windows (the second time with its version
  # resource) and drops them after the first, so the GUI face said the
  # dev version. It runs $GO as the go command: a wrapper puts the
  # version's -X in every -ldflags it passes to go build, so the GUI
  # face and the macOS app print what the console face and the .deb do.
  cat >"$DIST/.bin/go-version" <<GO
#!/usr/bin/env bash
x='-X=github.com/buildstation/buildstation/cli.Version=$VERSION'
args=() seen=
for a in "\$@"; do
  if [ "\$seen" = next ]; then a="\$x \$a" seen=done; fi
  [ "\$a" = -ldflags ] && seen=next
  args+=("\$a")
done
if [ "\${1:-}" = build ] && [ -z "\$seen" ]; then args=(build -ldflags "\$x" "\${args[@]:1}"); fi
exec $(command -v "$GO") "\${args[@]}"
GO
  chmod +x "$DIST/.bin/go-version"
  # fyne package -release bumps Build in FyneApp.toml and reformats it: keep ours.
  cp FyneApp.toml "$DIST/.FyneApp.toml"
  trap 'cp "$DIST/.FyneApp.toml" FyneApp.toml' EXIT
}

# png_ico: an .ico holding the PNG as it is (Windows Vista and later read
# one), for the MSI's Apps & features icon: no image tool needed.
png_ico() {
  local size
  size=$(wc -c <"$1")
  le32() { printf '%b' "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"; }
  printf '\x00\x00\x01\x00\x01\x00\x00\x00\x00\x00\x01\x00\x20\x00'
  le32 "$size"
  le32 22
  cat "$1"
}

# version_rc NAME DESCRIPTION: the version resource (windres source) of
# NAME.exe; fyne package writes buildstationw.exe's.
version_rc() {
  local commas=${NUMERIC//./,},$BUILD name=$1 what=$2
  cat <<RC
1 VERSIONINFO
FILEVERSION $commas
PRODUCTVERSION $commas
FILEOS 0x40004
FILETYPE 0x1
BEGIN
  BLOCK "StringFileInfo"
  BEGIN
    BLOCK "040904B0"
    BEGIN
      VALUE "CompanyName", "Build Station"
      VALUE "FileDescription", "$what"
      VALUE "FileVersion", "$NUMERIC.$BUILD"
      VALUE "InternalName", "$name"
      VALUE "OriginalFilename", "$name.exe"
      VALUE "ProductName", "Build Station"
      VALUE "ProductVersion", "$VERSION"
    END
  END
  BLOCK "VarFileInfo"
  BEGIN
    VALUE "Translation", 0x409, 1200
  END
END
RC
}

package_linux() {
  local stage=$DIST/.linux name=buildstation-$VERSION-linux-amd64
  rm -rf "$stage" && mkdir -p "$stage"
  say "buildstation-app: the station and the tray (cgo: the first build compiles Fyne's C parts and takes several minutes)"
  CGO_ENABLED=1 "$GO" build -trimpath -ldflags "$ldflags" -o "$stage/buildstation-app" .
  say "buildstation: the command line (no cgo, no UI), which hands the station's and the tray's verbs to buildstation-app"
  CGO_ENABLED=0 "$GO" build -trimpath -ldflags "$ldflags" -o "$stage/buildstation" ./cmd/buildstation
  say "$name.tar.gz"
  mkdir -p "$stage/$name/share/applications" "$stage/$name/share/icons/hicolor/256x256/apps"
  cp "$stage/buildstation" "$stage/buildstation-app" "$stage/$name/"
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

# win_exe NAME DESCRIPTION PACKAGE CGO: $DIST/NAME.exe from PACKAGE, with
# its version resource: windres (mingw) compiles it into a .syso in the
# package's folder, which go build links in; it is removed after.
win_exe() {
  local syso=$3/buildstation_windows_amd64.syso
  version_rc "$1" "$2" >"$DIST/.version.rc"
  x86_64-w64-mingw32-windres -O coff -o "$syso" "$DIST/.version.rc"
  CC=x86_64-w64-mingw32-gcc CGO_ENABLED=$4 GOOS=windows GOARCH=amd64 "$GO" build -trimpath -ldflags "$ldflags" -o "$DIST/$1.exe" "$3" || { rm -f "$syso"; exit 1; }
  rm -f "$syso" "$DIST/.version.rc"
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
  # Its version resource (fyne's) is x.y.z.BUILD, as the MSI's File table says.
  GO=$DIST/.bin/go-version CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 "$DIST/.bin/fyne" package -os windows -release --app-version "$NUMERIC" --app-build "$BUILD"
  mv "Build Station.exe" "$DIST/buildstationw.exe"
  say "buildstation-app.exe, the whole program as a console program (cgo; with a version resource: x.y.z.$BUILD)"
  win_exe buildstation-app "Build Station (station and tray)" . 1
  say "buildstation.exe, the command line (no cgo, no UI; with a version resource: x.y.z.$BUILD)"
  win_exe buildstation "Build Station (command line)" ./cmd/buildstation 0
  if ! command -v wixl >/dev/null; then
    echo "package: the MSI needs msitools' wixl: apt-get install -y wixl msitools" >&2
    exit 1
  fi
  local stage=$DIST/.msi msi=$DIST/buildstation-$VERSION-windows-amd64.msi
  rm -rf "$stage" && mkdir -p "$stage"
  cp packaging/windows/buildstation.wxs packaging/windows/MsiShortcutProperty.idt "$DIST/buildstation.exe" "$DIST/buildstation-app.exe" "$DIST/buildstationw.exe" "$stage/"
  png_ico assets/icon.png >"$stage/buildstation.ico"
  local pv=$NUMERIC.$BUILD
  say "$(basename "$msi") (wixl; per-user, no admin; x64; product version $pv)"
  (cd "$stage" && wixl -a x64 -D Version="$pv" -o installer.msi buildstation.wxs)
  # What wixl cannot write: the Start-menu shortcut's AUMID
  # (MsiShortcutProperty), each exe's version in the File table (so an
  # upgrade replaces a lower-versioned file), and an inclusive upper bound
  # on the upgrade row (WiX's AllowSameVersionUpgrades: Windows Installer
  # compares three fields, so an rc and its release are the same version).
  local upgrade
  upgrade=$(msiinfo export "$stage/installer.msi" Upgrade | tr -d '\r' | awk -F'\t' '$7 == "WIX_UPGRADE_DETECTED" { print $1 }')
  [ -n "$upgrade" ] || { echo "package: wixl wrote no WIX_UPGRADE_DETECTED row" >&2; exit 1; }
  (cd "$stage" && msibuild installer.msi -i MsiShortcutProperty.idt &&
    msibuild installer.msi -q "UPDATE \`File\` SET \`Version\`='$pv' WHERE \`File\`='buildstation.exe'" &&
    msibuild installer.msi -q "UPDATE \`File\` SET \`Version\`='$pv' WHERE \`File\`='buildstationw.exe'" &&
    msibuild installer.msi -q "UPDATE \`File\` SET \`Version\`='$pv' WHERE \`File\`='buildstation_app.exe'" &&
    msibuild installer.msi -q "DELETE FROM \`Upgrade\` WHERE \`ActionProperty\`='WIX_UPGRADE_DETECTED'" &&
    msibuild installer.msi -q "INSERT INTO \`Upgrade\` (\`UpgradeCode\`,\`VersionMax\`,\`Attributes\`,\`ActionProperty\`) VALUES ('$upgrade','$pv',513,'WIX_UPGRADE_DETECTED')")
  mv "$stage/installer.msi" "$msi"
  rm -rf "$stage"
  say "$DIST/buildstation.exe (the command line), $DIST/buildstation-app.exe (the whole program, console), $DIST/buildstationw.exe (the same, GUI: tray, logon task, links), $msi"
}

package_macos() {
  if [ "$(uname -s)" != Darwin ]; then
    say "the macOS artifacts (Build Station.app in a .dmg and a .zip) need a Mac: cgo for darwin needs Xcode's clang;"
    say "  run make package there (the release workflow does, on macos-latest)"
    return 0
  fi
  fyne_tool
  local app="Build Station.app" arch bin apps=() fronts=()
  rm -rf "$DIST/.mac" && mkdir -p "$DIST/.mac"
  for arch in arm64 amd64; do
    say "Build Station.app for $arch: buildstation-app, the station and the tray (cgo)"
    GO=$DIST/.bin/go-version GOARCH=$arch CGO_ENABLED=1 "$DIST/.bin/fyne" package -os darwin -release --app-version "$NUMERIC" --app-build "$BUILD"
    mv "$app" "$DIST/.mac/$arch.app"
    bin=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleExecutable' "$DIST/.mac/$arch.app/Contents/Info.plist")
    apps+=("$DIST/.mac/$arch.app/Contents/MacOS/$bin")
    say "buildstation for $arch: the command line (no cgo, no UI)"
    GOOS=darwin GOARCH=$arch CGO_ENABLED=0 "$GO" build -trimpath -ldflags "$ldflags" -o "$DIST/.mac/buildstation-$arch" ./cmd/buildstation
    fronts+=("$DIST/.mac/buildstation-$arch")
  done
  # One universal app (packaging/macos/bundle.sh): the arm64 bundle's
  # Info.plist and icon; in Contents/MacOS buildstation-app (both arches'
  # app joined by lipo, the CFBundleExecutable: what the Finder, the
  # buildstation:// handler and the login item start) and buildstation
  # (both arches' command line: what Homebrew links into its bin); the
  # link scheme and LSUIElement added to the Info.plist.
  local args=(-o "$DIST/.mac/$app" -s "$DIST/.mac/arm64.app")
  for bin in "${apps[@]}"; do args+=(-a "$bin"); done
  for bin in "${fronts[@]}"; do args+=(-f "$bin"); done
  bash packaging/macos/bundle.sh "${args[@]}"
  mv "$DIST/.mac/$app" "$app"
  plist="$app/Contents/Info.plist"
  plutil -lint "$plist"
  if [ -n "${BUILDSTATION_SIGN_IDENTITY:-}" ]; then
    # Inside out: the command line, a second executable in Contents/MacOS,
    # then the bundle (and its main executable).
    codesign --force --options runtime --timestamp -s "$BUILDSTATION_SIGN_IDENTITY" "$app/Contents/MacOS/buildstation"
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
    codesign --force -s - "$app/Contents/MacOS/buildstation"
    codesign --force --deep -s - "$app"
    how="ad-hoc signed: Gatekeeper blocks it when downloaded; open it once, then System Settings > Privacy & Security > Open Anyway (or run: xattr -dr com.apple.quarantine \"/Applications/Build Station.app\")"
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
