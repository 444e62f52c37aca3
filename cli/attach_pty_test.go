//go:build linux || darwin

package cli_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/ptytest"
	"github.com/buildstation/buildstation/supervisor"
)

// On a terminal, attach goes raw, sends the window size, forwards keys and
// detaches on Ctrl-].
func TestSessionAttachTerminal(t *testing.T) {
	s := startStation(t)
	con := s.fake.AddConsole("s1", []byte("screen"))
	ptmx, tty := ptytest.Open(t, 100, 30)
	go io.Copy(io.Discard, ptmx) // the terminal's screen
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(t.Context(), wired, []string{"--home", s.home, "session", "attach", "s1"}, tty, tty, &errb)
	}()
	if got := recv(t, con.Resizes); got != [2]uint16{100, 30} {
		t.Errorf("size = %v, want 100x30", got)
	}
	// Raw mode: a Ctrl-C byte reaches the session instead of signalling.
	if _, err := ptmx.Write([]byte("ab\x03")); err != nil {
		t.Fatal(err)
	}
	var in []byte
	for len(in) < 3 {
		in = append(in, recv(t, con.Input)...)
	}
	if string(in) != "ab\x03" {
		t.Errorf("input = %q", in)
	}
	if _, err := ptmx.Write([]byte{0x1d}); err != nil {
		t.Fatal(err)
	}
	if code := recv(t, done); code != 0 || !strings.HasSuffix(errb.String(), "detached\n") {
		t.Errorf("detach: exit %d, stderr %q", code, errb.String())
	}
	recv(t, con.Closed)
}

// A session of the tmux backend is attached with tmux itself, through the
// wiring main hands in (cli.Deps.TmuxAttach): the command line hands it the
// home and the session's id and says how to detach once tmux takes the
// terminal. (e2e/tmux attaches a real one, by its task id.)
func TestSessionAttachTmux(t *testing.T) {
	s := startStation(t)
	s.fake.AddSession(supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: supervisor.SessWorking, PID: 7}, "tok")
	_, tty := ptytest.Open(t, 0, 0)
	var home, id string
	d := wired
	d.TmuxAttach = func(h, i string, _ io.Reader, _, _ io.Writer, attaching func()) (bool, error) {
		home, id = h, i
		attaching()
		return true, nil
	}
	var errb bytes.Buffer
	code := cli.Run(t.Context(), d, []string{"--home", s.home, "session", "attach", "t1.1"}, tty, tty, &errb)
	if code != 0 || home != s.home || id != "t1.1" || !strings.Contains(errb.String(), "attaching to t1.1 in tmux; press Ctrl-]") {
		t.Fatalf("attach: exit %d, tmux asked for home %q session %q, stderr %q", code, home, id, errb.String())
	}
}
