//go:build linux || darwin

package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/ptytest"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// On a terminal, attach goes raw, sends the window size, forwards keys and
// detaches on Ctrl-], leaving the session running. The session is real,
// its agent this test binary (apitest.Agent), which says what it reads.
func TestSessionAttachTerminal(t *testing.T) {
	s := startAgents(t)
	s.addTask(t, "one")
	s.env.Session(t, "t1")
	ptmx, tty := ptytest.Open(t, 100, 30)
	var screen testwait.Buffer
	go io.Copy(&screen, ptmx) // the terminal's screen
	shows := func(want string) {
		t.Helper()
		testwait.Eventually(t, time.Minute, func() bool { return strings.Contains(screen.String(), want) },
			fmt.Sprintf("%q on the terminal", want), testwait.Later(screen.String))
	}
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(t.Context(), wired, []string{"--home", s.home, "session", "attach", "t1.1"}, tty, tty, &errb)
	}()
	shows("ready") // the session's screen so far
	if _, err := ptmx.Write([]byte("size\r")); err != nil {
		t.Fatal(err)
	}
	shows("size 100x30")
	// Raw mode: a Ctrl-C byte reaches the session instead of signalling,
	// and Enter goes as typed.
	if _, err := ptmx.Write([]byte("ab\x03\r")); err != nil {
		t.Fatal(err)
	}
	shows(apitest.Got([]byte("ab\x03")))
	if _, err := ptmx.Write([]byte{0x1d}); err != nil {
		t.Fatal(err)
	}
	if code := recv(t, done); code != 0 || !strings.HasSuffix(errb.String(), "detached\n") {
		t.Errorf("detach: exit %d, stderr %q", code, errb.String())
	}
	if info, ok := s.env.Station.Sessions.Session("t1.1"); !ok || info.State == supervisor.SessEnded {
		t.Errorf("t1.1 after the detach: %+v, %v; want it running", info, ok)
	}
}

// A session of the tmux backend is attached with tmux itself, through the
// wiring main hands in (cli.Deps.TmuxAttach): the command line hands it the
// home and the session's id and says how to detach once tmux takes the
// terminal. (e2e/tmux attaches a real one, by its task id.)
func TestSessionAttachTmux(t *testing.T) {
	s := startBoard(t)
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
