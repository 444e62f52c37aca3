package client

import (
	"context"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A station that hangs sends nothing, not even its keepalive: the stream
// is taken for dead after the idle limit and its channel closes, as when
// the station exits, so the tray says it is lost. Keepalives keep a quiet
// stream open. The clock is synctest's: the limit is met to the instant.
func TestASilentEventStreamEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		out := make(chan supervisor.Event, 4)
		done := make(chan struct{})
		const idle = 30 * time.Second
		go func() {
			defer close(done)
			readEvents(context.Background(), r, out, idle)
		}()
		for range 4 { // 80 s of keepalives, each inside the limit
			if _, err := io.WriteString(w, ": keepalive\n\n"); err != nil {
				t.Fatalf("the stream closed while keepalives came: %v", err)
			}
			time.Sleep(idle * 2 / 3)
		}
		select {
		case <-done:
			t.Fatal("the stream ended while keepalives came within the limit")
		default:
		}
		silent := time.Now() // the last line is written from here on
		if _, err := io.WriteString(w, "data: {\"kind\":\"task\"}\n\n"); err != nil {
			t.Fatal(err)
		}
		if e := <-out; e.Kind != supervisor.EventTask {
			t.Errorf("event %+v", e)
		}
		time.Sleep(idle - time.Millisecond)
		synctest.Wait()
		select {
		case <-done:
			t.Fatalf("the stream ended %s after its last line, before the %s limit", time.Since(silent), idle)
		default:
		}
		<-done // a silent stream that stayed open deadlocks the bubble: the test fails
		if took := time.Since(silent); took != idle {
			t.Errorf("the stream ended %s after its last line; want the %s limit", took, idle)
		}
	})
}
