// Package apitest gives tests of the API server, the CLI and the tray a
// station to serve, and it is always the real engine (supervisor/station)
// over a real board: Board, idle, over SQLite in a temp home (what a new
// verb is tested with); Start, the same run as a Rig says: real sessions
// in real pseudo-terminals whose agent is the test binary itself (Agent,
// with the package's TestMain calling Main, so it runs wherever the tests
// do, Windows included), git projects with worktrees, a review step, a
// shared board (PostgreSQL) joined as a named station, and a board that
// breaks on demand (Faults) for the paths where the station fails. There
// is no hand-written double to keep in step with the API.
package apitest
