#!/usr/bin/env bash
# macos-cask: the Homebrew cask filled from this build's .dmg
# (scripts/manifests.sh homebrew), put in a local tap and checked with
# brew style and brew audit (macos.yml and the release's macOS job).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/manifests.sh homebrew
tap=buildstation-ci/local
brew tap-new --no-git "$tap" >/dev/null
trap 'brew untap "$tap" >/dev/null 2>&1 || true' EXIT
casks="$(brew --repository "$tap")/Casks"
mkdir -p "$casks"
cp bin/dist/manifests/buildstation.rb "$casks/buildstation.rb"
brew style --cask "$tap/buildstation"
echo "PASS: brew style"
brew audit --cask "$tap/buildstation"
echo "PASS: brew audit --cask"
