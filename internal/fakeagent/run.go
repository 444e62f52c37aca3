package fakeagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// Reporter is how the fake agent talks to the station. It is an interface so
// that this package imports nothing from the station: main wires it to the API
// client using BUILDSTATION_URL and BUILDSTATION_TOKEN, tests to a recorder.
type Reporter interface {
	Complete(ctx context.Context, summary string) error
	Block(ctx context.Context, reason string) error
	Progress(ctx context.Context, message string) error
	Status(ctx context.Context, status string) error // "working" | "reviewing"
}

// Env is the world a run sees, passed in rather than taken from os so that
// tests can drive a run with pipes and buffers.
type Env struct {
	Stdin    io.Reader // read by read steps; a terminal is put in raw mode
	Stdout   io.Writer // the console; nil discards
	Stderr   io.Writer // failures; nil discards
	Reporter Reporter  // nil makes every report fail (printed, not fatal)
	Dir      string    // the working tree for commit and dirty; "" is the current directory
	Self     string    // this executable, run as `Self fake-agent SCRIPT` for child steps
}

// Exit codes besides 0 and exit N.
const (
	exitInputClosed = 1   // stdin ended while a read step waited
	exitBadScript   = 2   // Parse failed; matches the CLI's bad-usage code
	exitInterrupted = 130 // context cancelled or Ctrl-C, as a shell reports SIGINT
)

// exitError ends a run with a code; it is how steps leave early.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// runner holds one run's state. Only Run's goroutine touches it, except the
// stdin pump, which shares just the locked writers and ignoring.
type runner struct {
	env      Env
	out, err io.Writer // locked: the stdin pump echoes while steps print
	in       *input
	ignoring atomic.Bool // set by ignore-term; stops Ctrl-C from interrupting too
	dirtyN   int
	commitN  int
}

// Run parses script and plays it against env, returning the exit code the
// process should end with. It returns when the script ends, an exit step
// runs, or ctx is cancelled.
func Run(ctx context.Context, script string, env Env) int {
	var mu sync.Mutex
	r := &runner{env: env, out: locked(&mu, env.Stdout), err: locked(&mu, env.Stderr)}
	steps, err := Parse(script)
	if err != nil {
		r.errorf("fake-agent: %v", err)
		return exitBadScript
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	raw, restore := makeRaw(env.Stdin)
	defer restore()
	if env.Stdin != nil {
		var echo io.Writer
		if raw {
			// Raw mode turned the terminal's own echo and Ctrl-C off; a
			// real agent TUI does both itself, so this does too.
			echo = r.out
		}
		r.in = startInput(env.Stdin, echo, func() {
			if !r.ignoring.Load() {
				cancel()
			}
		})
		defer r.in.stop()
	}

	for i := 0; ; i++ {
		if i == len(steps) {
			return 0
		}
		if steps[i].Verb == "loop" {
			i = -1
			continue
		}
		err := r.step(ctx, steps[i])
		if ctx.Err() != nil {
			r.errorf("fake-agent: interrupted")
			return exitInterrupted
		}
		var exit exitError
		if errors.As(err, &exit) {
			return exit.code
		}
		if err != nil {
			r.errorf("fake-agent: %v", err)
			return 1
		}
	}
}

// step runs one step. Failures the script should survive are printed here;
// a returned error ends the run.
func (r *runner) step(ctx context.Context, s Step) error {
	switch s.Verb {
	case "print":
		r.printf("%s", s.Text)
	case "sleep":
		return sleep(ctx, s.Dur)
	case "heartbeat":
		return r.heartbeat(ctx, s)
	case "read", "read-prompt", "read-submit":
		return r.read(ctx, s)
	case "progress", "status", "complete", "block":
		r.report(ctx, s)
	case "spin":
		return spin(ctx, s.Dur)
	case "child-spin":
		r.childSpin(ctx, s.Dur)
	case "child-sleep":
		r.childSleep(s.Dur)
	case "grandchild-sleep":
		r.grandchildSleep(s.Dur)
	case "commit":
		if err := r.commit(ctx, s.Text); err != nil {
			r.errorf("commit failed: %v", err)
		} else {
			r.printf("committed: %s", s.Text)
		}
	case "dirty":
		r.dirty(s.Text)
	case "commit-every":
		return r.commitEvery(ctx, s)
	case "ignore-term":
		r.ignoring.Store(true)
		ignoreTerm()
	case "exit":
		return exitError{s.Code}
	case "wedge":
		<-ctx.Done()
	default:
		// Parse rejects unknown verbs; reaching here is a bug in this package.
		return fmt.Errorf("verb %q has no implementation", s.Verb)
	}
	return nil
}

// printf writes one console line. It ends lines with "\r\n" because on a raw
// terminal "\n" alone only moves down, not back to the first column.
func (r *runner) printf(format string, args ...any) {
	fmt.Fprintf(r.out, format+"\r\n", args...)
}

func (r *runner) errorf(format string, args ...any) {
	fmt.Fprintf(r.err, format+"\r\n", args...)
}

// lockedWriter serialises the step loop's lines with the stdin pump's echo.
// Stdout and Stderr share one mutex because they are often the same PTY.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func locked(mu *sync.Mutex, w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return &lockedWriter{mu: mu, w: w}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// asFile returns w when it is an open file a child process can inherit (a PTY
// or a test's temp file), so a child's output lands in the same console.
func asFile(w io.Writer) *os.File {
	f, _ := w.(*os.File)
	return f
}
