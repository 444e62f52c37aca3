package cli_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
)

// Attached from a script (stdin a file or pipe, not a terminal) there is no
// detach key: attach says it types what stdin holds and then shows the
// output until the session ends, instead of seeming to hang.
func TestSessionAttachWithoutTerminalSaysSo(t *testing.T) {
	s := startStation(t)
	con := s.fake.AddConsole("s1", []byte("screen\n"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close() // like </dev/null
	defer r.Close()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(t.Context(), wired, []string{"--home", s.home, "session", "attach", "s1"}, r, outW, &errb)
		outW.Close()
	}()
	readN(t, outR, "screen\n")
	con.End()
	go io.Copy(io.Discard, outR)
	if code := recv(t, done); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got := errb.String(); !strings.HasPrefix(got, "stdin is not a terminal: typing what it holds into s1, then showing its output read-only until it ends") {
		t.Errorf("stderr %q", got)
	}
}
