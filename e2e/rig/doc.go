// Package rig is the one harness of the end-to-end suites under e2e/: Main
// is every suite's TestMain (it builds the buildstation binary once per test
// binary); Start and StartOn run `buildstation daemon` as a subprocess on a
// temp home and stop it at the test's end; the CLI and its --json output
// drive it; GitRepo makes real repositories; ClaudeBin finds the real Claude
// Code CLI; NewPostgres runs a PostgreSQL server of the test's own, for the
// tests that stop the board under a station; Eventually waits for what a
// real process does; ParseWatchdog reads the nudges and blocks in a
// station's log. It is imported only by _test files and the bench
// program; nothing that ships depends on it. Its station half is Unix
// only: it signals process groups.
package rig
