#!/usr/bin/env bash
# bundle: Build Station.app from built binaries, as a release ships it.
#
#   bash packaging/macos/bundle.sh -o OUT.app -s FROM.app \
#     -a APP [-a APP…] -f FRONT [-f FRONT…]
#
# FROM.app is a bundle `fyne package -os darwin` made (its Info.plist,
# with the id, the version and the icon, and its Resources/icon.icns);
# OUT.app is FROM.app with Contents/MacOS holding the two programs:
#
#   buildstation-app  the whole program (station, tray, link handler; cgo),
#                     joined from the APP binaries (one per arch) with lipo.
#                     It is CFBundleExecutable: what the Finder, the
#                     buildstation:// handler and the login item start.
#   buildstation      the command line (no cgo, no UI), joined from the
#                     FRONT binaries: what Homebrew's bin and a PATH link
#                     name; it hands the app's verbs to buildstation-app
#                     beside it (internal/faces).
#
# and Info.plist's CFBundleExecutable set to buildstation-app, plus what
# FyneApp.toml cannot say (platform/service's InfoPlistAdditions, kept in
# its golden file): CFBundleURLTypes (buildstation:// links) and
# LSUIElement (a menu-bar app, no Dock icon). Nothing is signed here.
# One binary per program is copied as it is; more are joined with $LIPO
# (default lipo; llvm-lipo works too). Runs on Linux as well as on a Mac
# (packaging's TestMacBundle runs it with stand-ins).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
additions=$here/../../platform/service/testdata/info-plist-additions.xml.golden
LIPO=${LIPO:-lipo}
APP=buildstation-app FRONT=buildstation
out= from= apps=() fronts=()
usage() { echo "usage: bundle.sh -o OUT.app -s FROM.app -a APP [-a APP…] -f FRONT [-f FRONT…]" >&2; exit 2; }
while getopts "o:s:a:f:" opt; do
  case $opt in
    o) out=$OPTARG ;;
    s) from=$OPTARG ;;
    a) apps+=("$OPTARG") ;;
    f) fronts+=("$OPTARG") ;;
    *) usage ;;
  esac
done
[ -n "$out" ] && [ -n "$from" ] && [ ${#apps[@]} -gt 0 ] && [ ${#fronts[@]} -gt 0 ] || usage
[ "$OPTIND" -gt $# ] || usage
case $out in *.app) ;; *) echo "bundle: $out: the bundle's name must end in .app" >&2; exit 2 ;; esac
[ -f "$from/Contents/Info.plist" ] || { echo "bundle: $from has no Contents/Info.plist" >&2; exit 1; }
for f in "${apps[@]}" "${fronts[@]}"; do
  [ -f "$f" ] || { echo "bundle: no binary $f" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -R "$from" "$out"
rm -rf "$out/Contents/MacOS"
mkdir -p "$out/Contents/MacOS"

# join DEST BIN…: one binary as it is, several as one universal binary.
join() {
  local dest=$1
  shift
  if [ $# -eq 1 ]; then
    cp "$1" "$dest"
  else
    "$LIPO" -create -output "$dest" "$@"
  fi
  chmod 755 "$dest"
}
join "$out/Contents/MacOS/$APP" "${apps[@]}"
join "$out/Contents/MacOS/$FRONT" "${fronts[@]}"

plist=$out/Contents/Info.plist
# CFBundleExecutable's value is the <string> after its key (fyne writes
# each on its own line); then the additions go just before the top dict's
# end, unless FROM.app had them already.
awk -v exe="$APP" '
  want && /<string>[^<]*<\/string>/ { sub(/<string>[^<]*<\/string>/, "<string>" exe "</string>"); want = 0; done = 1 }
  /<key>CFBundleExecutable<\/key>/ { want = 1 }
  { print }
  END { if (!done) exit 1 }' "$plist" >"$plist.new" ||
  { echo "bundle: $plist: no CFBundleExecutable <key> with a <string> on a line after it" >&2; rm -f "$plist.new"; exit 1; }
if ! grep -q '<key>CFBundleURLTypes</key>' "$plist.new"; then
  awk 'FNR==NR { frag = frag $0 "\n"; next } /^<\/dict>/ && !done { printf "%s", frag; done = 1 } { print }' \
    "$additions" "$plist.new" >"$plist"
  rm "$plist.new"
else
  mv "$plist.new" "$plist"
fi
if command -v plutil >/dev/null; then
  plutil -lint "$plist" >/dev/null
fi
echo "bundle: $out: Contents/MacOS/$APP (CFBundleExecutable, from ${#apps[@]} binaries) and Contents/MacOS/$FRONT (the command line, from ${#fronts[@]})"
