#!/usr/bin/env bash
# macos-dmg: what make package made on a Mac, asserted (macos.yml and the
# release's macOS job): the app's executable is universal (lipo -archs
# gives x86_64 and arm64), the .dmg mounts, and the app inside it prints
# the version scripts/version.sh gives (the tag on a release), as does
# the app in bin/dist. Exits non-zero on the first thing that is not so.
set -euo pipefail
cd "$(dirname "$0")/.."
want="buildstation $(bash scripts/version.sh)"
app="bin/dist/Build Station.app"
exe=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleExecutable' "$app/Contents/Info.plist")
archs=$(lipo -archs "$app/Contents/MacOS/$exe")
sorted=$(tr ' ' '\n' <<<"$archs" | sort | tr '\n' ' ')
[ "$sorted" = "arm64 x86_64 " ] || { echo "FAIL: lipo -archs says '$archs', want x86_64 arm64"; exit 1; }
echo "PASS: universal: lipo -archs $archs"
v=$("$app/Contents/MacOS/$exe" --version)
[ "$v" = "$want" ] || { echo "FAIL: the app's --version said '$v', want '$want'"; exit 1; }
echo "PASS: the app's --version: $v"
dmg=bin/dist/buildstation-$(bash scripts/version.sh)-macos-universal.dmg
mnt=$(mktemp -d)
hdiutil attach -nobrowse -readonly -mountpoint "$mnt" "$dmg" >/dev/null
trap 'hdiutil detach "$mnt" >/dev/null || true' EXIT
[ -d "$mnt/Build Station.app" ] || { echo "FAIL: the .dmg holds no Build Station.app: $(ls "$mnt")"; exit 1; }
v=$("$mnt/Build Station.app/Contents/MacOS/$exe" --version)
[ "$v" = "$want" ] || { echo "FAIL: the .dmg's app said '$v', want '$want'"; exit 1; }
echo "PASS: $(basename "$dmg") mounts; its app's --version: $v"
codesign --verify --deep --strict "$mnt/Build Station.app"
echo "PASS: the .dmg's app passes codesign --verify --deep --strict"
