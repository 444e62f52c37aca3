package testwait

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// Cond is what a test waits for: a func() bool that turns true, or a
// func() error that turns nil (its last error says what is still missing,
// and the failure message quotes it).
type Cond interface {
	func() bool | func() error
}

// The poll starts fast, so a condition that holds at once costs little,
// and backs off to maxEvery, so a long wait on a CLI or /proc does not
// load a machine that is running several suites.
const (
	firstEvery = 10 * time.Millisecond
	maxEvery   = 100 * time.Millisecond
)

// errNotYet is a func() bool's "not yet": it has nothing more to say.
var errNotYet = errors.New("not yet")

// Poll checks cond at once, then again and again until it holds or d has
// passed since the call. It returns nil once cond holds, else an error
// "waited d for what" with cond's last error.
func Poll[C Cond](d time.Duration, what string, cond C) error {
	check := asErr(cond)
	deadline := time.Now().Add(d)
	every := firstEvery
	for {
		err := check()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			if err == errNotYet {
				return fmt.Errorf("waited %s for %s", d, what)
			}
			return fmt.Errorf("waited %s for %s; last: %w", d, what, err)
		}
		time.Sleep(every)
		every = min(2*every, maxEvery)
	}
}

// Eventually waits up to d for cond, or fails the test with "waited d for
// what", cond's last error, then each of more on a line of its own: a
// station's log, a transcript. Pass a fmt.Stringer (or a Later) to have it
// read only when the test fails.
func Eventually[C Cond](t testing.TB, d time.Duration, cond C, what string, more ...any) {
	t.Helper()
	err := Poll(d, what, cond)
	if err == nil {
		return
	}
	msg := err.Error()
	for _, m := range more {
		msg += "\n" + fmt.Sprint(m)
	}
	t.Fatal(msg)
}

// Later is text read only when it is printed: what a failure message adds
// that costs a file read or a CLI call.
type Later func() string

func (f Later) String() string { return f() }

func asErr[C Cond](cond C) func() error {
	switch f := any(cond).(type) {
	case func() bool:
		return func() error {
			if f() {
				return nil
			}
			return errNotYet
		}
	case func() error:
		return f
	}
	panic("testwait: unreachable: Cond has two types")
}
