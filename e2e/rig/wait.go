package rig

import (
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// Eventually waits up to d for cond (a func() bool that turns true or a
// func() error that turns nil), or fails the test with "waited d for what",
// cond's last error and then each of more on a line of its own (pass a
// fmt.Stringer such as a Station's Log, or a Later, to have it read only
// on failure). It is testwait.Eventually, named here so that an e2e test
// finds its whole harness in one package.
func Eventually[C testwait.Cond](t testing.TB, d time.Duration, cond C, what string, more ...any) {
	t.Helper()
	testwait.Eventually(t, d, cond, what, more...)
}

// Later is text a failure message reads only when the test fails: a
// transcript, a story.
type Later = testwait.Later
