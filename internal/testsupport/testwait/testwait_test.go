package testwait

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

// A condition that holds on its third check ends the wait there, well
// before the timeout.
func TestPollReturnsOnceTheConditionHolds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start, n := time.Now(), 0
		if err := Poll(time.Minute, "the third check", func() bool { n++; return n == 3 }); err != nil {
			t.Fatal(err)
		}
		if n != 3 || time.Since(start) >= time.Second {
			t.Fatalf("%d checks over %s, want 3 in well under a second", n, time.Since(start))
		}
	})
}

// A wait that times out says what it waited for, how long, and what the
// condition saw last; it checks once more at the deadline, not after it
// has slept past it for long.
func TestPollSaysWhatItWaitedFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start, n := time.Now(), 0
		errMissing := errors.New("task t1 is todo")
		err := Poll(5*time.Second, "task t1 done", func() error { n++; return errMissing })
		if err == nil || !errors.Is(err, errMissing) || err.Error() != "waited 5s for task t1 done; last: task t1 is todo" {
			t.Fatalf("err %v", err)
		}
		if took := time.Since(start); took < 5*time.Second || took > 5*time.Second+maxEvery {
			t.Fatalf("gave up after %s, want 5s", took)
		}
		if n < 5*int(time.Second/maxEvery) {
			t.Fatalf("%d checks in 5s", n)
		}
		err = Poll(time.Second, "the window gone", func() bool { return false })
		if err == nil || err.Error() != "waited 1s for the window gone" {
			t.Fatalf("a bool condition's error: %v", err)
		}
	})
}

// Eventually fails the test with Poll's sentence.
func TestEventuallyFailsTheTest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fatalT{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Eventually(ft, time.Second, func() bool { return false }, "nothing", "the log", Later(func() string { return "the transcript" }))
		}()
		<-done
		if ft.msg != "waited 1s for nothing\nthe log\nthe transcript" {
			t.Fatalf("failed with %q", ft.msg)
		}
	})
}

// fatalT records a Fatal and ends the goroutine, as testing.T does.
type fatalT struct {
	testing.TB
	msg string
}

func (f *fatalT) Helper() {}

func (f *fatalT) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
