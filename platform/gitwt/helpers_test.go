package gitwt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// TestMain hides the developer's own git config, so hooks, signing or
// defaults there cannot change what the tests see.
func TestMain(m *testing.M) {
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Println("skipping: no git on PATH")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "gitwt-test-")
	if err != nil {
		panic(err)
	}
	empty := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		panic(err)
	}
	os.Setenv("GIT_CONFIG_GLOBAL", empty)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Unsetenv("GIT_AUTHOR_NAME")
	os.Unsetenv("GIT_AUTHOR_EMAIL")
	os.Unsetenv("GIT_COMMITTER_NAME")
	os.Unsetenv("GIT_COMMITTER_EMAIL")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs git in dir and returns its stdout, raw.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// rev is run's output without the newline: a sha, a branch.
func rev(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(run(t, dir, args...))
}

// newRepo makes a repo on main with one commit, identity set in it.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	setIdentity(t, dir)
	commitFile(t, dir, "README", "hello\n", "initial")
	return dir
}

func setIdentity(t *testing.T, dir string) {
	t.Helper()
	run(t, dir, "config", "user.name", "Test")
	run(t, dir, "config", "user.email", "test@example.com")
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitFile writes name and commits it; it returns the commit's sha.
func commitFile(t *testing.T, dir, name, content, msg string) string {
	t.Helper()
	writeFile(t, dir, name, content)
	run(t, dir, "add", name)
	run(t, dir, "commit", "-q", "-m", msg)
	return rev(t, dir, "rev-parse", "HEAD")
}

func project(repo, gate string) supervisor.Repo {
	return supervisor.Repo{
		Name:         "demo",
		Path:         repo,
		Gate:         gate,
		WorktreeRoot: filepath.Join(repo, ".buildstation", "worktrees"),
	}
}

// countingGate is a gate command that appends a line to a counter file
// outside the repo each time it runs, then runs check.
func countingGate(t *testing.T, check string) (gate string, runs func() int) {
	t.Helper()
	counter := filepath.Join(t.TempDir(), "runs")
	gate = fmt.Sprintf("echo run >> '%s'; %s", counter, check)
	return gate, func() int {
		data, err := os.ReadFile(counter)
		if os.IsNotExist(err) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), "run\n")
	}
}

// fakeCache is a GateCache in memory.
type fakeCache struct {
	mu       sync.Mutex
	verdicts map[string]fakeVerdict
	saves    int
}

type fakeVerdict struct {
	passed bool
	tail   string
}

func newCache() *fakeCache { return &fakeCache{verdicts: map[string]fakeVerdict{}} }

func (c *fakeCache) GateResult(_ context.Context, project, sha string) (bool, string, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.verdicts[project+" "+sha]
	return v.passed, v.tail, ok, nil
}

func (c *fakeCache) SaveGateResult(_ context.Context, project, sha string, passed bool, tail string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.verdicts[project+" "+sha] = fakeVerdict{passed, tail}
	c.saves++
	return nil
}

// prepare is m's worktree of project p for task id, which the test needs
// to go on.
func prepare(t *testing.T, m *Manager, p supervisor.Repo, id string) supervisor.Workspace {
	t.Helper()
	ws, err := m.Prepare(context.Background(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}
