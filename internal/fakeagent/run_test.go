package fakeagent

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

func TestRunPrintAndExit(t *testing.T) {
	tests := []struct {
		script string
		code   int
		out    string
	}{
		{"print hello; print  two words ", 0, lines("hello", "two words")},
		{"print a; exit 3; print b", 3, lines("a")},
		{"exit 0; print never", 0, ""},
		{"print last", 0, lines("last")},
	}
	for _, tt := range tests {
		var out, errOut testwait.Buffer
		code := Run(context.Background(), tt.script, Env{Stdout: &out, Stderr: &errOut})
		if code != tt.code || out.String() != tt.out {
			t.Errorf("Run(%q) = %d, %q; want %d, %q (stderr %q)", tt.script, code, out.String(), tt.code, tt.out, errOut.String())
		}
	}
}

func TestRunBadScript(t *testing.T) {
	var out, errOut testwait.Buffer
	code := Run(context.Background(), "print hi; dance", Env{Stdout: &out, Stderr: &errOut})
	if code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	if out.String() != "" {
		t.Errorf("a bad script ran: stdout %q", out.String())
	}
	if !strings.Contains(errOut.String(), `unknown verb "dance"`) {
		t.Errorf("stderr %q does not name the bad verb", errOut.String())
	}
}

func TestRunNilWriters(t *testing.T) {
	if code := Run(context.Background(), "print into the void; dirty x", Env{Dir: t.TempDir()}); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestRunReports(t *testing.T) {
	rec := &recorder{}
	var out, errOut testwait.Buffer
	script := "progress half way; status reviewing; complete all done; block need a key"
	code := Run(context.Background(), script, Env{Stdout: &out, Stderr: &errOut, Reporter: rec})
	if code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	wantCalls := []string{"progress half way", "status reviewing", "complete all done", "block need a key"}
	if !reflect.DeepEqual(rec.calls, wantCalls) {
		t.Errorf("calls %q, want %q", rec.calls, wantCalls)
	}
	wantOut := lines("progress: half way", "status: reviewing", "complete: all done", "block: need a key")
	if out.String() != wantOut {
		t.Errorf("stdout %q, want %q", out.String(), wantOut)
	}
	if errOut.String() != "" {
		t.Errorf("stderr %q, want none", errOut.String())
	}
}

func TestRunReportFailureGoesOn(t *testing.T) {
	for _, rep := range []Reporter{&recorder{err: errBoom}, nil} {
		var out, errOut testwait.Buffer
		code := Run(context.Background(), "complete done; print after", Env{Stdout: &out, Stderr: &errOut, Reporter: rep})
		if code != 0 || out.String() != lines("complete: done", "after") {
			t.Errorf("reporter %v: exit %d, stdout %q", rep, code, out.String())
		}
		if !strings.Contains(errOut.String(), "complete failed:") {
			t.Errorf("reporter %v: stderr %q does not report the failure", rep, errOut.String())
		}
	}
}

func TestRunRead(t *testing.T) {
	var out, errOut testwait.Buffer
	stdin := strings.NewReader("hello\r\nworld\nthree\r")
	code := Run(context.Background(), "read; read-prompt Name?; read; print end", Env{Stdin: stdin, Stdout: &out, Stderr: &errOut})
	want := lines("got: hello", "Name?", "got: world", "got: three", "end")
	if code != 0 || out.String() != want {
		t.Errorf("exit %d, stdout %q; want 0, %q (stderr %q)", code, out.String(), want, errOut.String())
	}
}

func TestRunReadBackspace(t *testing.T) {
	var out testwait.Buffer
	code := Run(context.Background(), "read", Env{Stdin: strings.NewReader("helo\x7flo\r"), Stdout: &out})
	if code != 0 || out.String() != lines("got: hello") {
		t.Errorf("exit %d, stdout %q", code, out.String())
	}
}

func TestRunReadInputClosed(t *testing.T) {
	for _, stdin := range []*strings.Reader{strings.NewReader("one\n"), nil} {
		var out, errOut testwait.Buffer
		env := Env{Stdout: &out, Stderr: &errOut}
		if stdin != nil {
			env.Stdin = stdin
		}
		code := Run(context.Background(), "read; read; print never", env)
		if code != 1 || strings.Contains(out.String(), "never") {
			t.Errorf("stdin %v: exit %d, stdout %q; want 1 and a stop", stdin, code, out.String())
		}
		if errOut.String() == "" {
			t.Errorf("stdin %v: nothing on stderr", stdin)
		}
	}
}

func TestRunSpin(t *testing.T) {
	start := time.Now()
	if code := Run(context.Background(), "spin 50ms", Env{}); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("spin 50ms took %v", d)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := Run(ctx, "spin 1h", Env{}); code != 130 {
		t.Errorf("cancelled spin: exit %d, want 130", code)
	}
}
