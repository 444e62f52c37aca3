#!/usr/bin/env bash
# old-msi: the MSI an upgrade starts from, built from an older commit's own
# source and scripts, as that release was built:
#
#   bash scripts/old-msi.sh REF VERSION DIST
#
# writes DIST/buildstation-VERSION-windows-amd64.msi from REF (a commit or
# a tag of this clone: needs its history). make msi-smoke and windows.yml's
# msi job take REF = the last commit whose MSI shipped the two faces of
# the whole program (buildstation.exe and buildstationw.exe, before the
# light front and buildstation-app.exe), so the upgrade they check is the
# one a user of those releases makes. The source goes to DIST/.src (one
# path from run to run, so the Go build cache finds its packages again; a
# dot folder, which the repository's own checks and ./... leave out, as
# the clone's bin/ usually holds DIST).
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:?usage: old-msi.sh REF VERSION DIST} version=${2:?VERSION} dist=${3:?DIST}
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
git rev-parse --verify -q "$ref^{commit}" >/dev/null || {
  echo "old-msi: no commit $ref in this clone (a shallow clone? fetch its history: fetch-depth: 0)" >&2
  exit 1
}
rm -rf "$dist/.src" && mkdir -p "$dist/.src"
git archive "$ref" | tar -x -C "$dist/.src"
echo "old-msi: $(git log -1 --format='%h %s' "$ref") as $version"
# Its source sits inside this clone's folder but is no checkout of it: no
# VCS stamp (go build would read this clone's state).
GOFLAGS="${GOFLAGS:+$GOFLAGS }-buildvcs=false" VERSION=$version PACKAGE_ONLY=windows DIST=$dist \
  bash "$dist/.src/scripts/package.sh"
ls "$dist/buildstation-$version-windows-amd64.msi" >/dev/null
