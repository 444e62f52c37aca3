// Package wiring holds the roles main runs itself — the station (daemon),
// the demo, the service installer, the fence guard and the scripted agent —
// and the OS edges they take on this platform. main picks one by verb; the
// command line (package cli) owns their help and flags and hands them the
// home it parsed, so --home is read once.
package wiring
