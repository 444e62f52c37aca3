#!/usr/bin/env bash
# macos-dmg: what make package made on a Mac, asserted (macos.yml and the
# release's macOS job). Exits non-zero on the first thing that is not so.
#
# The app (bin/dist/Build Station.app, put together by
# packaging/macos/bundle.sh): its CFBundleExecutable is buildstation-app
# (what the Finder, the buildstation:// handler and the login item
# start), and Contents/MacOS/buildstation beside it is the command line;
# both are universal (lipo -archs gives x86_64 and arm64) and print the
# version scripts/version.sh gives (the tag on a release); the command
# line links no UI framework (otool -L), hands `board status` to the app,
# also when run through a symbolic link in another folder (as Homebrew's
# bin links it), and `service install --dry-run` through it writes
# LaunchAgents that start buildstation-app. Then the .dmg mounts and the
# app inside says the same version, and codesign verifies it.
set -euo pipefail
cd "$(dirname "$0")/.."
want="buildstation $(bash scripts/version.sh)"
app="bin/dist/Build Station.app"
exe=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleExecutable' "$app/Contents/Info.plist")
[ "$exe" = buildstation-app ] || { echo "FAIL: CFBundleExecutable is '$exe', want buildstation-app"; exit 1; }
echo "PASS: CFBundleExecutable: $exe"
front="$PWD/$app/Contents/MacOS/buildstation"
for bin in "$app/Contents/MacOS/$exe" "$front"; do
  archs=$(lipo -archs "$bin")
  sorted=$(tr ' ' '\n' <<<"$archs" | sort | tr '\n' ' ')
  [ "$sorted" = "arm64 x86_64 " ] || { echo "FAIL: lipo -archs $bin says '$archs', want x86_64 arm64"; exit 1; }
  echo "PASS: universal: lipo -archs $(basename "$bin"): $archs"
  v=$("$bin" --version)
  [ "$v" = "$want" ] || { echo "FAIL: $(basename "$bin") --version said '$v', want '$want'"; exit 1; }
  echo "PASS: $(basename "$bin") --version: $v"
done
if otool -L "$front" | grep -E 'Cocoa|AppKit|OpenGL|UserNotifications'; then
  echo "FAIL: the command line links a UI framework (above)"
  exit 1
fi
echo "PASS: the command line links no UI framework: $(otool -L "$front" | tail -n +2 | awk '{print $1}' | tr '\n' ' ')"
work=$(mktemp -d)
mkdir -p "$work/bin"
ln -s "$front" "$work/bin/buildstation"
for bs in "$front" "$work/bin/buildstation"; do
  out=$("$bs" --home "$work/home" board status 2>&1) || true
  grep -q 'embedded board' <<<"$out" || { echo "FAIL: $bs board status was not answered by the app: $out"; exit 1; }
  echo "PASS: $bs hands board status to the app: $out"
done
plan=$("$work/bin/buildstation" --home "$work/home" service install --dry-run)
grep -q "<string>$PWD/$app/Contents/MacOS/buildstation-app</string>" <<<"$plan" ||
  { echo "FAIL: service install --dry-run names no LaunchAgent program $PWD/$app/Contents/MacOS/buildstation-app:"; echo "$plan"; exit 1; }
grep -q "<string>$front</string>" <<<"$plan" && { echo "FAIL: a LaunchAgent starts the command line, not the app:"; echo "$plan"; exit 1; }
echo "PASS: service install --dry-run: the LaunchAgents start Contents/MacOS/buildstation-app"
dmg=bin/dist/buildstation-$(bash scripts/version.sh)-macos-universal.dmg
mnt=$(mktemp -d)
hdiutil attach -nobrowse -readonly -mountpoint "$mnt" "$dmg" >/dev/null
trap 'hdiutil detach "$mnt" >/dev/null || true' EXIT
[ -d "$mnt/Build Station.app" ] || { echo "FAIL: the .dmg holds no Build Station.app: $(ls "$mnt")"; exit 1; }
for bin in "$exe" buildstation; do
  v=$("$mnt/Build Station.app/Contents/MacOS/$bin" --version)
  [ "$v" = "$want" ] || { echo "FAIL: the .dmg's $bin said '$v', want '$want'"; exit 1; }
  echo "PASS: $(basename "$dmg") mounts; its $bin --version: $v"
done
codesign --verify --deep --strict "$mnt/Build Station.app"
echo "PASS: the .dmg's app passes codesign --verify --deep --strict"
