//go:build linux

package station_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A station started as `GHTOK=ghp_… buildstation daemon` with a source's
// token_env = "GHTOK": its sessions' environment lacked GHTOK, but the
// gate — which runs the agent's own tests — inherited it, and the agent
// read it from its parent station's /proc/<pid>/environ. Neither holds it
// now: the gate sees no GHTOK (it fails when it does), the station's
// environment block shows none, and the source still has its token.
func TestSecretNeverReachesTheGateNorTheStationsEnviron(t *testing.T) {
	t.Parallel()
	const secret = "ghp_e2e_secret_never_shown"
	repo, out := rig.GitRepo(t), t.TempDir()
	// The agent: copies its parent's (the station's) environment block,
	// then completes; the gate fails if it can see the secret.
	agent := fmt.Sprintf(`command = ["sh", "-c", "tr '\\000' '\\n' < /proc/$PPID/environ > %s/parent-env; buildstation agent complete --summary done"]`, out)
	cfg := fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\n%s\nidle_window = \"60s\"\nblock_window = \"60s\"\ngate = \"sh -c '! env | grep -q %s'\"\n", repo, agent, secret) +
		"\n[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\ntoken_env = \"GHTOK\"\napi_url = \"http://127.0.0.1:1\"\n"
	home := rig.WriteConfig(t, cfg)
	s := rig.Start(t, rig.Bin(), home, rig.Env(rig.Bin(), home, "GHTOK="+secret))
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "env"))
	got := s.WaitState(id, "done", 90*time.Second)
	if got.State != "done" {
		t.Fatalf("task %s is %s (%s): the gate saw the secret", id, got.State, got.Reason)
	}
	parent, err := os.ReadFile(filepath.Join(out, "parent-env"))
	if err != nil {
		t.Fatalf("the agent did not read its parent's environment: %v", err)
	}
	if strings.Contains(string(parent), secret) {
		t.Errorf("the station's /proc/<pid>/environ shows the secret to its agent:\n%s", parent)
	}
	if !strings.Contains(string(parent), "BUILDSTATION_HOME=") {
		t.Errorf("the agent read something else than the station's environment:\n%s", parent)
	}
	if st := s.Must("source", "ls"); strings.Contains(st, "empty or unset") {
		t.Errorf("the source lost its token once the station took it:\n%s", st)
	}
}
