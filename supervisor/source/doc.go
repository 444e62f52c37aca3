// Package source brings a team's own board into the station: the open
// issues of a GitHub repository or a Linear team that carry a label become
// tasks, and the station writes its progress back to them (a comment and a
// state when a task starts or blocks, a pull request when it is done, a
// review's verdict).
//
// The rules are pure and table-tested: Plan says what a poll changes on
// the board, Writes what a task's history owes its issue. Syncer runs them:
// it polls each source at most once a minute (conditional requests, so an
// unchanged source costs no rate limit), queues every write in the
// station's outbox before sending it (an offline station replays it later,
// and a write is never sent twice), and keeps a one-sentence state per
// source for status, `source ls` and the tray. Prober is the board layer
// of the watchdog's evidence: activity on a task's issue counts as life.
//
// The HTTP clients live in platform/github and platform/linear; this
// package does no I/O of its own.
package source
