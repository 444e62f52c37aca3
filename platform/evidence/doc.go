// Package evidence holds the watchdog's pull layers of evidence: probers the
// station asks, only when a session's console has been silent for a whole
// window, whether the session showed life some other way.
//
//   - CPU (layer "cpu"): the agent's descendants burned CPU time — a silent
//     native build or test run is alive. The agent's own time does not
//     count: an agent CLI's spinner is not work.
//   - Commits (layer "commits"): the session's worktree HEAD or branch moved.
//
// Both read the system at check time (/proc, the git directory) instead of
// polling, so idle sessions cost nothing between checks. They implement
// supervisor.Prober; the supervisor never imports this package.
package evidence
