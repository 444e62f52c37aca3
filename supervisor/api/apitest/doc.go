// Package apitest gives tests of the API server, the CLI and the tray a
// station to serve: Board, the real engine over a real SQLite board in a
// temp home (what a new verb is tested with); Start, the same run as a
// Rig says (real sessions of a real agent process, git projects with
// worktrees); and Station, an older hand-written in-memory fake for the
// tests written against it, frozen (it answers the verbs it had and grows
// no more).
package apitest
