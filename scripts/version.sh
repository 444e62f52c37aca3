#!/usr/bin/env bash
# version: the version a build carries, without the leading v.
#   a version tag on HEAD (v0.3.0)        → 0.3.0
#   commits after the last tag (v0.3.0-4-gabc123) → 0.3.0-4-gabc123
#   no tag                                  → FyneApp.toml's Version + "-dev"
# VERSION in the environment wins (the release workflow sets it from the tag).
#   bash scripts/version.sh          the version
#   bash scripts/version.sh numeric  its x.y.z alone (an MSI's ProductVersion)
set -euo pipefail
cd "$(dirname "$0")/.."
v=${VERSION:-}
if [ -z "$v" ]; then
  if t=$(git describe --tags --match 'v[0-9]*' 2>/dev/null); then
    v=${t#v}
  else
    v="$(sed -n 's/^ *Version *= *"\(.*\)"/\1/p' FyneApp.toml | head -1)-dev"
  fi
fi
v=${v#v}
if [ "${1:-}" = numeric ]; then
  n=$(printf '%s' "$v" | sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
  [ -n "$n" ] || { echo "version: $v does not start with x.y.z" >&2; exit 1; }
  echo "$n"
else
  echo "$v"
fi
