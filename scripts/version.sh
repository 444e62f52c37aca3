#!/usr/bin/env bash
# version: the version a build carries, without the leading v: what every
# face's --version prints (scripts/package.sh writes it in with -X).
#   HEAD is a version tag's commit (v0.3.0, v0.2.1-rc1) → 0.3.0, 0.2.1-rc1
#   any other commit of a clone → FyneApp.toml's Version-dev+<12 hex of the commit>
#   no git                       → FyneApp.toml's Version-dev
# The program says the same without -X (cli.buildVersion). VERSION in the
# environment wins (the release workflow sets it from the tag).
#   bash scripts/version.sh          the version
#   bash scripts/version.sh numeric  its x.y.z alone (fyne's --app-version)
#   bash scripts/version.sh build    the fourth field of the Windows file
#                                    and product versions: a release 65000,
#                                    -rcN 30000+N, -betaN 20000+N, -alphaN
#                                    10000+N, any other pre-release (a dev
#                                    build) the clone's commit count (at
#                                    most 9999), so a later build is a
#                                    higher version and an upgrade replaces
#                                    every file
#   bash scripts/version.sh msi      x.y.z.build (the MSI's ProductVersion)
set -euo pipefail
cd "$(dirname "$0")/.."
v=${VERSION:-}
if [ -z "$v" ]; then
  base=$(sed -n 's/^ *Version *= *"\(.*\)"/\1/p' FyneApp.toml | head -1)
  if t=$(git describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null); then
    v=${t#v}
  elif c=$(git rev-parse HEAD 2>/dev/null); then
    v="$base-dev+${c:0:12}"
  else
    v="$base-dev"
  fi
fi
v=${v#v}
numeric() {
  local n
  n=$(printf '%s' "$v" | sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
  [ -n "$n" ] || { echo "version: $v does not start with x.y.z" >&2; exit 1; }
  echo "$n"
}
build() {
  local pre=${v#"$(numeric)"} n
  pre=${pre%%+*}
  pre=${pre#-}
  n=$(printf '%s' "$pre" | sed -n 's/^[a-zA-Z.]*\([0-9][0-9]*\)$/\1/p')
  [ -z "$n" ] || [ "$n" -lt 10000 ] || n=9999
  case "$pre" in
    "") echo 65000 ;;
    rc*) echo $((30000 + ${n:-0})) ;;
    beta*) echo $((20000 + ${n:-0})) ;;
    alpha*) echo $((10000 + ${n:-0})) ;;
    *)
      n=$(git rev-list --count HEAD 2>/dev/null || echo 1)
      [ "$n" -lt 10000 ] || n=9999
      echo "$n" ;;
  esac
}
case "${1:-}" in
  numeric) numeric ;;
  build) build ;;
  msi) echo "$(numeric).$(build)" ;;
  "") echo "$v" ;;
  *) echo "version: unknown form $1 (numeric, build, msi)" >&2; exit 2 ;;
esac
