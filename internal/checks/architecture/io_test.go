package architecture

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The vocabulary and the engine do no OS I/O of their own: files,
// transcripts, prompts and processes reach them through the ports their
// interfaces declare (Files, Spawner, Prober, Workspaces), implemented in
// platform/. Only direct imports count: the standard library reaches os
// underneath (log/slog does) without the engine calling it.
func TestEngineImportsNoOS(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to list the packages")
	}
	forbidden := []string{"os", "os/exec", "os/signal", "syscall", "runtime", "net"}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		for _, pkg := range paths("supervisor", "supervisor/station", "supervisor/agent", "supervisor/source") {
			cmd := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", pkg)
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list %s (GOOS=%s): %v", pkg, goos, err)
			}
			for _, imp := range strings.Fields(string(out)) {
				if slices.Contains(forbidden, imp) {
					t.Errorf("%s (GOOS=%s) imports %s: the engine reaches the OS only through its ports (supervisor.Files, Spawner, Prober, Workspaces)", trim(pkg), goos, imp)
				}
			}
		}
	}
}
