//go:build unix

package fakeagent

import (
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/term"

	"github.com/buildstation/buildstation/internal/testsupport/ptytest"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// TestRealPTY runs the fake agent as a program on a real PTY, as the station
// does: it must switch the terminal to raw mode (in cooked mode the text
// would arrive with its Enter in one read), echo what is typed, and tell a
// pasted burst from text followed by a separate Enter.
func TestRealPTY(t *testing.T) {
	ptmx, tty := ptytest.Open(t, 0, 0)
	cooked, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(self(), "fake-agent", "print ready; read-submit; read; print bye")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	var out testwait.Buffer
	go io.Copy(&out, ptmx) // ends when the test closes ptmx
	expect := func(want string) {
		t.Helper()
		testwait.Eventually(t, 10*time.Second, func() error {
			if s := out.String(); !strings.Contains(s, want) {
				return fmt.Errorf("the console shows %q", s)
			}
			return nil
		}, fmt.Sprintf("%q on the console", want))
	}
	write := func(s string) {
		t.Helper()
		if _, err := ptmx.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}

	expect("ready\r\n")
	write("hello\r")
	expect(pastedNote)
	write("hello")
	expect("hello\r\n" + pastedNote + "\r\nhello") // echoed as typed
	// A real pause between the text and Enter is the behaviour under test.
	time.Sleep(300 * time.Millisecond)
	write("\r")
	expect("got: hello\r\n")
	write("plain burst\r") // read takes a burst
	expect("got: plain burst\r\nbye\r\n")
	if err := cmd.Wait(); err != nil {
		t.Errorf("fake agent: %v; console %q", err, out.String())
	}
	if after, err := term.GetState(int(tty.Fd())); err != nil || !reflect.DeepEqual(after, cooked) {
		t.Errorf("the terminal was left in raw mode (%v)", err)
	}
}
