//go:build linux

package station_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// Another local user (nobody) makes a world-writable git repository; its
// owner must not become a project: `project add` refuses it, with and
// without a station, in git's words and with what to do. A project of
// such a folder written into config.toml by hand is blocked with that
// reason, and its agent never runs in the folder.
func TestAnotherUsersFolderNeverBecomesAProject(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	t.Parallel()
	nb, nb2 := nobodysRepo(t), nobodysRepo(t)
	want := func(dir string) string {
		return dir + " is owned by another user; git refuses it (detected dubious ownership, safe.directory). Clone it into a folder you own, or add it with git config --global --add safe.directory " + dir + " if you trust it"
	}

	home := t.TempDir()
	env := rig.Env(rig.Bin(), home, "GIT_CONFIG_GLOBAL=/dev/null")
	_, errOut, code, err := rig.CLI(rig.Bin(), env, "project", "add", nb, "--name", "nb", "--command", "buildstation", "fake-agent")
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(errOut, want(nb)) {
		t.Errorf("project add with no station: exit %d, stderr %q; want %q", code, errOut, want(nb))
	}

	own := rig.GitRepo(t)
	writeFile(t, filepath.Join(home, "config.toml"), rig.ProjectTOML("mine", own, "1m", "1m")+rig.ProjectTOML("nb", nb, "1m", "1m"))
	s := rig.Start(t, rig.Bin(), home, env)
	_, errOut, code = s.Run("project", "add", nb2, "--name", "nb2", "--command", "buildstation", "fake-agent")
	if code != 1 || !strings.Contains(errOut, want(nb2)) {
		t.Errorf("project add through the station: exit %d, stderr %q", code, errOut)
	}
	if cfg := readFile(t, filepath.Join(home, "config.toml")); strings.Contains(cfg, `"nb2"`) {
		t.Errorf("a refused project was written:\n%s", cfg)
	}

	id := s.AddTask("nb", "planted", "dirty ran-here; complete ran in another user folder")
	got := s.WaitState(id, "blocked", 60*time.Second)
	if !strings.Contains(got.Reason, "is owned by another user") {
		t.Errorf("the task blocks with %q", got.Reason)
	}
	if _, err := os.Stat(filepath.Join(nb, "dirty-1.txt")); err == nil {
		t.Error("the agent ran in another user's folder")
	}
	if _, ok := s.SessionOf(id); ok {
		t.Error("a session ran for a folder git refuses")
	}
}

// nobodysRepo is a git repository with one commit that belongs to nobody
// (uid 65534), open to everyone (0777), as another local user would leave it.
func nobodysRepo(t *testing.T) string {
	t.Helper()
	dir := rig.GitRepo(t)
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}
