//go:build !windows

package cli_test

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// Attached from a script (stdin a file or pipe, not a terminal) there is no
// detach key: attach says it types what stdin holds and then shows the
// output until the session ends, instead of seeming to hang.
func TestSessionAttachWithoutTerminalSaysSo(t *testing.T) {
	s, dir := startSessions(t)
	s.addTask(t, "one")
	id, _ := session(t, dir)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close() // like </dev/null
	defer r.Close()
	outR, outW := io.Pipe()
	var errb testwait.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(t.Context(), wired, []string{"--home", s.home, "session", "attach", id}, r, outW, &errb)
		outW.Close()
	}()
	go io.Copy(io.Discard, outR)
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.Contains(errb.String(), "stdin is not a terminal") },
		"attach to say how it runs", testwait.Later(errb.String))
	s.ok(t, "task", "cancel", "t1") // ends the session
	if code := recv(t, done); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got := errb.String(); !strings.HasPrefix(got, "stdin is not a terminal: typing what it holds into "+id+", then showing its output read-only until it ends") {
		t.Errorf("stderr %q", got)
	}
}
