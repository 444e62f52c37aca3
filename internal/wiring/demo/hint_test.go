package demo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The demo's "watch from another terminal" line must work when pasted into
// a shell, whether or not buildstation is on PATH.
func TestCommandRunsAsPrinted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hint is a POSIX shell line")
	}
	dir := filepath.Join(t.TempDir(), "my bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(dir, "buildstation")
	script := "#!/bin/sh\necho \"home=$BUILDSTATION_HOME args=$*\"\n"
	if err := os.WriteFile(self, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "demo home's")
	for _, tc := range []struct {
		name, path, prog string
	}{
		{"not on PATH", "/usr/bin:/bin", "'"},
		{"on PATH", dir + ":/usr/bin:/bin", "buildstation status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			line := Command(self, home) + " status"
			if !strings.Contains(line, tc.prog) {
				t.Errorf("hint %q should name the program as %q", line, tc.prog)
			}
			out, err := exec.Command("/bin/sh", "-c", line).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "home="+home+" args=status" {
				t.Fatalf("%s: %q, %v", line, out, err)
			}
		})
	}
}

// Under `go run .` the binary lives in a temporary folder that is gone when
// the demo ends: the hint names `go run .` instead of that path.
func TestCommandUnderGoRunNamesGoRun(t *testing.T) {
	self := filepath.Join(t.TempDir(), "go-build1234", "b001", "exe", "buildstation")
	t.Setenv("PATH", "/usr/bin:/bin")
	if got := Command(self, "/h"); got != "BUILDSTATION_HOME=/h go run ." {
		t.Fatalf("hint %q", got)
	}
}
