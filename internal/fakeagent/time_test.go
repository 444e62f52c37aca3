package fakeagent

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// start runs script in the background of a synctest bubble and returns its
// exit code channel.
func start(ctx context.Context, script string, env Env) <-chan int {
	done := make(chan int, 1)
	go func() { done <- Run(ctx, script, env) }()
	return done
}

func TestSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out testwait.Buffer
		begin := time.Now()
		done := start(t.Context(), "print a; sleep 5m; print b", Env{Stdout: &out})
		time.Sleep(5*time.Minute - time.Nanosecond)
		synctest.Wait()
		if got := out.String(); got != lines("a") {
			t.Fatalf("just before the sleep ends: stdout %q", got)
		}
		if code := <-done; code != 0 {
			t.Errorf("exit code %d", code)
		}
		if d := time.Since(begin); d != 5*time.Minute {
			t.Errorf("run took %v, want 5m", d)
		}
		if got := out.String(); got != lines("a", "b") {
			t.Errorf("stdout %q", got)
		}
	})
}

func TestHeartbeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out testwait.Buffer
		begin := time.Now()
		code := Run(t.Context(), "heartbeat 1s 3500ms; print done", Env{Stdout: &out})
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
		if d := time.Since(begin); d != 3500*time.Millisecond {
			t.Errorf("heartbeat 1s 3500ms took %v", d)
		}
		if want := lines("heartbeat 1", "heartbeat 2", "heartbeat 3", "done"); out.String() != want {
			t.Errorf("stdout %q, want %q", out.String(), want)
		}
	})
}

func TestHeartbeatForeverUntilCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out testwait.Buffer
		ctx, cancel := context.WithCancel(t.Context())
		done := start(ctx, "heartbeat 1m forever", Env{Stdout: &out})
		time.Sleep(10*time.Minute + time.Second)
		cancel()
		if code := <-done; code != 130 {
			t.Errorf("exit code %d, want 130", code)
		}
		if n := strings.Count(out.String(), "heartbeat "); n != 10 {
			t.Errorf("%d heartbeats in 10m, want 10: %q", n, out.String())
		}
	})
}

func TestWedgeAndLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out, errOut testwait.Buffer
		ctx, cancel := context.WithCancel(t.Context())
		wedged := start(ctx, "print stuck; wedge", Env{Stdout: &out})
		looping := start(ctx, "print tick; sleep 1s; loop", Env{Stdout: &errOut})
		time.Sleep(time.Hour + 500*time.Millisecond)
		cancel()
		if code := <-wedged; code != 130 {
			t.Errorf("wedge: exit code %d, want 130", code)
		}
		if code := <-looping; code != 130 {
			t.Errorf("loop: exit code %d, want 130", code)
		}
		if out.String() != lines("stuck") {
			t.Errorf("wedge printed %q", out.String())
		}
		if n := strings.Count(errOut.String(), "tick\r\n"); n != 3600+1 {
			t.Errorf("loop ticked %d times in an hour, want %d", n, 3600+1)
		}
	})
}

// TestReadSubmit plays the station's nudge: a burst "text\r" is a paste and
// must not count; text, a pause, then a lone "\r" is typed and submitted.
func TestReadSubmit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		var out testwait.Buffer
		done := start(t.Context(), "read-submit; print after", Env{Stdin: pr, Stdout: &out})

		write := func(s string) {
			if _, err := pw.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		write("pasted text\r") // a burst: paste
		write("\r")            // Enter on an empty line: nothing
		write("too soon")      // Enter 50ms later: still a paste
		time.Sleep(50 * time.Millisecond)
		write("\r")
		synctest.Wait()
		if got, want := out.String(), lines(pastedNote, pastedNote); got != want {
			t.Fatalf("after bursts: stdout %q, want %q", got, want)
		}

		write("Note: you have been ")
		write("silent") // typed in pieces, as a person would
		time.Sleep(300 * time.Millisecond)
		write("\r")
		if code := <-done; code != 0 {
			t.Errorf("exit code %d", code)
		}
		want := lines(pastedNote, pastedNote, "got: Note: you have been silent", "after")
		if got := out.String(); got != want {
			t.Errorf("stdout %q, want %q", got, want)
		}
	})
}

// TestReadKeepsEarlyInput checks that input typed while a step is busy waits
// for the next read, with the time it arrived.
func TestReadKeepsEarlyInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		var out testwait.Buffer
		done := start(t.Context(), "sleep 1h; read-submit; read", Env{Stdin: pr, Stdout: &out})
		pw.Write([]byte("early"))
		time.Sleep(time.Second)
		pw.Write([]byte("\r"))
		pw.Write([]byte("plain\r"))
		if code := <-done; code != 0 {
			t.Errorf("exit code %d", code)
		}
		if want := lines("got: early", "got: plain"); out.String() != want {
			t.Errorf("stdout %q, want %q", out.String(), want)
		}
	})
}

func TestEcho(t *testing.T) {
	var out testwait.Buffer
	interrupted := 0
	echoBytes(&out, []byte("ab\x7fc\r\n\x01\x03"), false, func() { interrupted++ })
	if want := "ab\b \bc\r\n^C\r\n"; out.String() != want {
		t.Errorf("echo %q, want %q", out.String(), want)
	}
	if interrupted != 1 {
		t.Errorf("Ctrl-C interrupted %d times, want 1", interrupted)
	}
}
