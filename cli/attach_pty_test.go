//go:build linux || darwin

package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

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
	s, ptmx, tty, screen := sessionOnTerminal(t)
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

// A SIGTERM from elsewhere ends an attach with the terminal back as it
// was (echo and line editing on), though the command line that runs it
// (cmd/buildstation) catches no signal for its other verbs: the attach
// catches it itself. Without that the test binary dies of the signal.
func TestSessionAttachRestoresTheTerminalOnSIGTERM(t *testing.T) {
	s, _, tty, _ := sessionOnTerminal(t)
	before, err := unix.IoctlGetTermios(int(tty.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	var errb testwait.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(context.Background(), wired, []string{"--home", s.home, "session", "attach", "t1.1"}, tty, tty, &errb)
	}()
	testwait.Eventually(t, time.Minute, func() bool { return strings.Contains(errb.String(), "press Ctrl-] to detach") },
		"the attach going raw", testwait.Later(errb.String))
	raw, _ := unix.IoctlGetTermios(int(tty.Fd()), ioctlGetTermios)
	if raw.Lflag&unix.ECHO != 0 {
		t.Fatalf("the terminal is not raw while attached (lflag %#x)", raw.Lflag)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := recv(t, done); code != 0 {
		t.Errorf("attach ended by SIGTERM: exit %d, stderr %q", code, errb.String())
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("the terminal after the attach: lflag %#x iflag %#x oflag %#x; before it: %#x %#x %#x",
			after.Lflag, after.Iflag, after.Oflag, before.Lflag, before.Iflag, before.Oflag)
	}
}

// sessionOnTerminal starts task t1's session (its agent this test binary)
// and opens a 100×30 terminal whose screen is copied into the buffer.
func sessionOnTerminal(t *testing.T) (s *station, ptmx, tty *os.File, screen *testwait.Buffer) {
	s = startAgents(t)
	s.addTask(t, "one")
	s.env.Session(t, "t1")
	ptmx, tty = ptytest.Open(t, 100, 30)
	screen = new(testwait.Buffer)
	go io.Copy(screen, ptmx) // the terminal's screen
	return s, ptmx, tty, screen
}
