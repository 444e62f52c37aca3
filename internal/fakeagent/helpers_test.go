package fakeagent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
)

// helperEnv makes the test binary act as the fake-agent program: the child
// steps re-run Self (this binary) as `Self fake-agent SCRIPT`.
const helperEnv = "FAKEAGENT_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		if len(os.Args) != 3 || os.Args[1] != "fake-agent" {
			fmt.Fprintf(os.Stderr, "test helper: want fake-agent SCRIPT, got %q\n", os.Args[1:])
			os.Exit(2)
		}
		// Like main: SIGTERM cancels the run unless ignore-term undid that.
		ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		os.Exit(Run(ctx, os.Args[2], Env{
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Self: self(),
		}))
	}
	// Every child a test starts inherits this and becomes the helper.
	os.Setenv(helperEnv, "1")
	os.Exit(m.Run())
}

func self() string {
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}

// recorder is a Reporter that records calls and fails them with err.
type recorder struct {
	mu    sync.Mutex
	calls []string
	err   error
}

func (r *recorder) add(call string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
	return r.err
}

func (r *recorder) Complete(_ context.Context, s string) error { return r.add("complete " + s) }
func (r *recorder) Block(_ context.Context, s string) error    { return r.add("block " + s) }
func (r *recorder) Progress(_ context.Context, s string) error { return r.add("progress " + s) }
func (r *recorder) Status(_ context.Context, s string) error   { return r.add("status " + s) }

var errBoom = errors.New("boom")

// lines joins want the way the fake agent ends its lines.
func lines(want ...string) string {
	var b bytes.Buffer
	for _, l := range want {
		b.WriteString(l + "\r\n")
	}
	return b.String()
}
