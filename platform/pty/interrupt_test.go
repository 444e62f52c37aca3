package pty

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type keys struct {
	mu  sync.Mutex
	at  []time.Duration
	t0  time.Time
	got []string
}

func (k *keys) Write(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.at = append(k.at, time.Since(k.t0))
	k.got = append(k.got, string(b))
	return len(b), nil
}

// Stop's polite signal is Ctrl+C twice, ctrlCGap apart (Claude Code exits on
// the second), then the rest of the grace period before the kill.
func TestInterruptTypesCtrlCTwiceWithAGap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := &keys{t0: time.Now()}
		done := make(chan struct{})
		interrupt(k, done, 3*time.Second)
		if !slices.Equal(k.got, []string{"\x03", "\x03"}) || !slices.Equal(k.at, []time.Duration{0, ctrlCGap}) {
			t.Fatalf("typed %q at %v, want two Ctrl+C at 0 and %v", k.got, k.at, ctrlCGap)
		}
		if waited := time.Since(k.t0); waited != 3*time.Second {
			t.Fatalf("waited %v, want the whole grace for an agent that did not exit", waited)
		}
	})
}

func TestInterruptStopsWhenTheAgentExits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := &keys{t0: time.Now()}
		done := make(chan struct{})
		go func() {
			time.Sleep(100 * time.Millisecond) // exits on the first Ctrl+C
			close(done)
		}()
		interrupt(k, done, 3*time.Second)
		if len(k.got) != 1 || time.Since(k.t0) != 100*time.Millisecond {
			t.Fatalf("typed %q, returned after %v; want one Ctrl+C and a return at the exit", k.got, time.Since(k.t0))
		}
		interrupt(k, done, 0)
		if len(k.got) != 1 {
			t.Fatal("a zero grace typed something")
		}
	})
}
