// Package station is Build Station's engine: the scheduler that claims
// tasks into free slots, one goroutine per agent session, the watchdog that
// tells healthy silence from a wedge, the gate, reviews, resume, and the
// leases a shared board needs.
//
// It is pure Go over the vocabulary in package supervisor. Everything that
// touches the OS (pseudo-terminals, process trees, files, notifications) or
// storage sits behind the interfaces declared there and is implemented
// elsewhere: station never imports platform/ or fyne, and the daemon's
// wiring joins the two.
package station
