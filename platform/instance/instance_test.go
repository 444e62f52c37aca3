package instance

import (
	"context"
	"errors"
	"os"
	"testing"
)

func shortHome(t *testing.T) string {
	t.Helper()
	// A unix socket path must be short (about 100 bytes); t.TempDir's can
	// be long.
	dir, err := os.MkdirTemp("", "bsi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestSecondInstanceForwards(t *testing.T) {
	home := shortHome(t)
	if err := Send(home, Request{}); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send with no tray = %v, want ErrNotRunning", err)
	}
	s, err := Listen(home)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan Request, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, func(r Request) { got <- r }) }()

	if _, err := Listen(home); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Listen = %v, want ErrRunning", err)
	}
	if err := Send(home, Request{Open: "s3"}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if err := Send(home, Request{}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if r := <-got; r.Open != "s3" {
		t.Errorf("first request opens %q, want s3", r.Open)
	}
	if r := <-got; r.Open != "" {
		t.Errorf("second request opens %q, want the dashboard", r.Open)
	}
	select {
	case r := <-got:
		t.Errorf("the ping of the second Listen reached the handler: %+v", r)
	default:
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if err := Send(home, Request{}); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send after the tray quit = %v, want ErrNotRunning", err)
	}
	// The next tray takes over.
	s2, err := Listen(home)
	if err != nil {
		t.Fatalf("Listen after the first tray quit: %v", err)
	}
	s2.Close()
}

// Two trays started in the same instant: exactly one listens.
func TestTwoTraysAtOnce(t *testing.T) {
	for round := 0; round < 20; round++ {
		home := shortHome(t)
		type res struct {
			s   *Server
			err error
		}
		got := make(chan res, 2)
		start := make(chan struct{})
		for i := 0; i < 2; i++ {
			go func() {
				<-start
				s, err := Listen(home)
				got <- res{s, err}
			}()
		}
		close(start)
		a, b := <-got, <-got
		won := 0
		for _, r := range []res{a, b} {
			switch {
			case r.err == nil:
				won++
				defer r.s.Close()
			case !errors.Is(r.err, ErrRunning):
				t.Fatalf("round %d: Listen = %v", round, r.err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d trays listen, want exactly 1", round, won)
		}
	}
}

func TestStaleEndpointIsTakenOver(t *testing.T) {
	home := shortHome(t)
	s, err := Listen(home)
	if err != nil {
		t.Fatal(err)
	}
	// A crash: the listener dies and the OS drops the claim; the endpoint
	// file stays.
	s.ln.Close()
	s.release()
	s2, err := Listen(home)
	if err != nil {
		t.Fatalf("Listen over a stale endpoint: %v", err)
	}
	defer s2.Close()
	go s2.Serve(context.Background(), func(Request) {})
	if err := Send(home, Request{Open: "x"}); err != nil {
		t.Fatalf("Send to the new tray: %v", err)
	}
}
