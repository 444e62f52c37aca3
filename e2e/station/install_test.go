//go:build linux

package station_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// An installed buildstation in a folder that is not on anyone's PATH (a
// fresh GOBIN) still reaches a plain shell-script agent: the station puts
// its own folder first on every session's PATH and names itself in
// BUILDSTATION_BIN, so the prompt's `buildstation agent complete` works.
func TestInstalledStationIsOnTheAgentsPath(t *testing.T) {
	t.Parallel()
	gobin := filepath.Join(t.TempDir(), "go", "bin")
	if err := os.MkdirAll(gobin, 0o755); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(gobin, "buildstation")
	// cp writes the copy, not this process: a file it held open for
	// writing would be inherited by a parallel test's fork, and the
	// station's start would then fail with "text file busy".
	if out, err := exec.Command("cp", rig.Bin(), installed).CombinedOutput(); err != nil {
		t.Fatalf("install a copy: %v: %s", err, out)
	}
	agent := `echo "bin=$BUILDSTATION_BIN"; buildstation agent complete --summary "landed by a shell script"; sleep 30`
	cfg := "\n[[projects]]\nname = \"sh\"\npath = " + strconv.Quote(t.TempDir()) +
		"\nidle_window = \"30s\"\nblock_window = \"30s\"\ncommand = [\"sh\", \"-c\", " + strconv.Quote(agent) + "]\n"
	home := rig.WriteConfig(t, cfg)
	// The station's own PATH has no buildstation on it.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin", "BUILDSTATION_HOME="+home)
	s := rig.Start(t, installed, home, env)
	id := strings.TrimSpace(s.Must("task", "add", "--project", "sh", "--title", "report back"))
	got := s.WaitState(id, "done", 20*time.Second)
	if got.Summary != "landed by a shell script" {
		t.Errorf("summary %q", got.Summary)
	}
	if tr := s.Transcript(id, 1); !strings.Contains(tr, "bin="+installed) {
		t.Errorf("BUILDSTATION_BIN is not the station's executable; transcript:\n%s", tr)
	}
}
