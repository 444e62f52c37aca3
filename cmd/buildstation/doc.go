// Command buildstation is the command line as packages install it: the
// station's client verbs, linked with no UI, no SQLite, no MCP SDK and no
// cgo, so that a verb starts like git (make bench: "CLI start"). The verbs
// that need the rest — the daemon, the tray and its dashboard, the demo,
// the service installer, the board verbs, rendered logs, version --check
// (HTTPS: this binary links no net/http and no TLS), the fence guard, the
// scripted agent — it hands to buildstation-app beside it (internal/faces), the
// module's main package, which runs every verb itself.
package main
