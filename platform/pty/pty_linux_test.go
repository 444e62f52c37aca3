package pty

import (
	"io"
	"testing"

	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/supervisor"
)

// Linux only: elsewhere the master stays blocking (see pollable), and a
// blocked Read ends only when the last process closes the terminal.
func TestCloseEndsRead(t *testing.T) {
	// A grandchild keeps the terminal open after the agent exits; Close
	// must still end a pending Read.
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"sh", "-c", "sleep 300 & echo started"}})
	out := proctest.Collect(p)
	out.WaitFor(t, "started")
	if _, err := proctest.WaitCode(t, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.End(t); err != io.EOF {
		t.Errorf("Read after Close = %v, want io.EOF", err)
	}
}
