// Package supervisor is Build Station's core: the task board model, the
// scheduler, one goroutine per agent session, the watchdog that tells healthy
// silence from a wedge, and the typed event bus the tray and API subscribe to.
//
// It is pure Go. Everything that touches the OS (pseudo-terminals, process
// trees, notifications) or storage sits behind the small interfaces declared
// here (Spawner, Board, Notifier) and is implemented elsewhere: supervisor
// never imports platform/ or fyne, and main wires the two together.
package supervisor
