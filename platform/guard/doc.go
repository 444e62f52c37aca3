// Package guard is the fence guard: a small process beside a station on a
// shared board that ends the station's agents when the station stops
// proving its leases and cannot end them itself (a station process stopped
// with SIGSTOP, or stuck in the kernel, while its agents run on).
//
// The station feeds it, at each lease renewal that succeeds, the deadline
// by which its agents must be gone — the one its own self-fence keeps — and
// tells it which sessions run. A guard that hears nothing new by that
// deadline ends every session it was told of, as the station's fence
// would, and logs it. It runs in a process group (unix: a session) of its
// own, so a signal that stops the station does not stop it.
//
// The decisions (next) are a pure state machine, tested with fake time;
// Run reads the station's feed and carries them out; Client is the
// station's end of the feed.
package guard
