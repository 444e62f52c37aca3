// Package testwait is how a test waits for something another process or
// goroutine does in real time (a file written, a session listed, a window
// closed): it polls a condition until it holds or a timeout passes, then
// fails with one line saying what it waited for and what it saw last.
// Tests that wait on a clock fake time with testing/synctest instead; this
// is for real processes, where there is no clock to advance.
//
// It is test support: only _test files, the test helpers (e2e/rig,
// platform/internal/proctest) and the bench program import it; nothing
// that ships does.
package testwait
