package proctest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// Deadline bounds every wait on a real process in these tests.
const Deadline = 10 * time.Second

// Output collects a Proc's output in the background, as the session reader
// does, so a test can wait for text without blocking the agent.
type Output struct {
	mu   sync.Mutex
	buf  strings.Builder
	err  error
	done chan struct{}
}

// Collect reads r until it fails.
func Collect(r io.Reader) *Output {
	o := &Output{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			o.mu.Lock()
			o.buf.Write(b[:n])
			if err != nil {
				o.err = err
			}
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// WaitFor polls the output until it contains want.
func (o *Output) WaitFor(t testing.TB, want string) {
	t.Helper()
	testwait.Eventually(t, Deadline, func() error {
		got := o.String()
		if strings.Contains(got, want) {
			return nil
		}
		select {
		case <-o.done:
			t.Fatalf("output ended (%v) without %q; got %q", o.err, want, Tail(got))
		default:
		}
		return fmt.Errorf("got %q", Tail(got))
	}, fmt.Sprintf("%q in the output", want))
}

// End waits for the reader to finish and returns its final error.
func (o *Output) End(t testing.TB) error {
	t.Helper()
	select {
	case <-o.done:
	case <-time.After(Deadline):
		t.Fatalf("Read never ended; output so far %q", Tail(o.String()))
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Waiter is an agent process: supervisor.Proc, or a part of one.
type Waiter interface{ Wait() (int, error) }

// WaitCode waits for the agent to exit.
func WaitCode(t testing.TB, p Waiter) (int, error) {
	t.Helper()
	type result struct {
		code int
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		code, err := p.Wait()
		ch <- result{code, err}
	}()
	select {
	case r := <-ch:
		return r.code, r.err
	case <-time.After(Deadline):
		t.Fatal("Wait never returned")
		return 0, nil
	}
}

// Tail keeps a failure message short.
func Tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

// Spawner is a session backend.
type Spawner interface {
	Spawn(supervisor.SpawnSpec) (supervisor.Proc, error)
}

// Spawn starts spec with sp (in this process's environment when spec has
// none) and makes sure its tree is gone after the test.
func Spawn(t testing.TB, sp Spawner, spec supervisor.SpawnSpec) supervisor.Proc {
	t.Helper()
	if spec.Env == nil {
		spec.Env = os.Environ()
	}
	p, err := sp.Spawn(spec)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", spec.Argv, err)
	}
	t.Cleanup(func() {
		_ = p.Stop(0)
		_ = p.Close()
	})
	return p
}
