//go:build unix

package rig

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitRepo makes a real repository with one commit, at its real path: Claude
// Code compares trusted folders by resolved path.
func GitRepo(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

// Git runs git in dir and fails the test unless it succeeds.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return string(out)
}

// TaskBranch is the branch the station made for task id in repo:
// bs/<board-id>/<id>, the board id being the station's own. It fails the
// test unless exactly one such branch exists.
func TaskBranch(t *testing.T, repo, id string) string {
	t.Helper()
	var found []string
	for _, ref := range strings.Fields(Git(t, repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/bs/")) {
		if strings.HasSuffix(ref, "/"+id) && strings.Count(ref, "/") == 2 {
			found = append(found, ref)
		}
	}
	if len(found) != 1 {
		t.Fatalf("branches of task %s in %s: %v, want one bs/<board>/%s", id, repo, found, id)
	}
	return found[0]
}
