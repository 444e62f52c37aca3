//go:build unix

// The shared harness is e2e/rig; what is here is the tmux backend's own.

package tmux_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestMain(m *testing.M) { rig.Main(m, rig.Options{Need: "tmux"}) }

// newHome writes config.toml in a fresh home, and kills the home's tmux
// server after the test: it outlives every station by design.
func newHome(t *testing.T, cfg string) string {
	t.Helper()
	home := rig.WriteConfig(t, cfg)
	t.Cleanup(func() { _ = tmux(home, "kill-server").Run() })
	return home
}

// tmux is a tmux command on the home's server.
func tmux(home string, args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-S", filepath.Join(home, "tmux.sock")}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	return cmd
}

// projectTOML is a [[projects]] table running the fake agent in tmux.
func projectTOML(name, path, idle, block string) string {
	return rig.ProjectTOML(name, path, idle, block, `backend = "tmux"`)
}
