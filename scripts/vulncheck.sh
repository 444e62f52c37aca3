#!/usr/bin/env bash
# make vulncheck: govulncheck over every package, run from the module proxy.
# It needs the Go vulnerability database (vuln.go.dev, or $GOVULNDB); where
# that cannot be reached it says so and exits 0: an unreachable database is
# no finding, and must not fail a build on a machine without that access.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
VULN=${GOVULNCHECK:-golang.org/x/vuln/cmd/govulncheck@v1.9.0}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
$GO run "$VULN" ./... >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'fetching vulnerabilities' "$out"; then
  db=${GOVULNDB:-https://vuln.go.dev}
  echo "vulncheck: SKIPPED, nothing was checked: the vulnerability database ($db) cannot be reached from this machine."
  echo "vulncheck: run make vulncheck where it can be reached, or set GOVULNDB to a mirror (file:///path works)."
  grep 'fetching vulnerabilities' "$out" | sed 's/^/vulncheck: /'
  exit 0
fi
cat "$out"
if [ $rc -eq 3 ]; then
  echo "vulncheck: FAILED: the code calls vulnerable functions (above); upgrade the modules or Go named there."
fi
exit $rc
