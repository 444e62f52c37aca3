package client

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A station that hangs sends nothing, not even its keepalive: the stream
// is taken for dead after the idle limit and its channel closes, as when
// the station exits, so the tray says it is lost. Keepalives keep a quiet
// stream open.
func TestASilentEventStreamEnds(t *testing.T) {
	r, w := io.Pipe()
	out := make(chan supervisor.Event, 4)
	done := make(chan struct{})
	const idle = 300 * time.Millisecond
	go func() {
		defer close(done)
		readEvents(context.Background(), r, out, idle)
	}()
	for range 4 { // 800 ms of keepalives, each inside the limit
		if _, err := io.WriteString(w, ": keepalive\n\n"); err != nil {
			t.Fatalf("the stream closed while keepalives came: %v", err)
		}
		time.Sleep(idle * 2 / 3)
	}
	silent := time.Now() // the last line is written from here on
	if _, err := io.WriteString(w, "data: {\"kind\":\"task\"}\n\n"); err != nil {
		t.Fatal(err)
	}
	if e := <-out; e.Kind != supervisor.EventTask {
		t.Errorf("event %+v", e)
	}
	select {
	case <-done:
		if took := time.Since(silent); took < idle {
			t.Errorf("the stream ended %s after its last line, before the %s limit", took, idle)
		}
	case <-time.After(20 * idle):
		t.Fatal("a silent stream stayed open")
	}
}
