// Package goroutines gives background work an owner. A Group starts each
// piece of work on a goroutine of its own, counts those still running,
// and Close waits for all of them: a station's Run, or the tray, does not
// return while work it started goes on (the model: tailscale's
// util/goroutines.Tracker). The work's context is the owner's to give:
// a Group holds none, so what ends the work on a stop is said where the
// work starts.
package goroutines
