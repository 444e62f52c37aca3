//go:build !windows

package cli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// task pr on the real station, in a git project with no GitHub source:
// one sentence saying where a source is added, exit 1, and nothing else;
// a task that is not there is named with the command that lists them.
// (A GitHub source's pull request: e2e TestTaskPrOpensPullRequest.)
func TestTaskPrWithoutGitHubSource(t *testing.T) {
	s, dir, _ := startGit(t, "", "work\n")
	s.addTask(t, "one")
	id, tok := session(t, dir)
	s.asAgent(t, id, tok)
	if r := run(t, "", "agent", "complete", "--summary", "fixed"); r.code != 0 {
		t.Fatalf("agent complete: %d %q", r.code, r.stderr)
	}
	s.asAgent(t, "", "")
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.TrimSpace(s.ok(t, "session", "ls", "--json")) == "[]" },
		"the task's session to end")
	r := run(t, "", "--home", s.home, "task", "pr", "t1")
	want := "buildstation: project web has no GitHub source; add a [[sources]] table with kind = \"github\", project = \"web\" and its repo to config.toml (docs/sources.md)\n"
	if r.code != 1 || r.stdout != "" || r.stderr != want {
		t.Fatalf("task pr t1: exit %d, stdout %q, stderr %q, want %q", r.code, r.stdout, r.stderr, want)
	}
	if r := run(t, "", "--home", s.home, "task", "pr", "t9"); r.code != 1 || !strings.Contains(r.stderr, `task t9 not found; list tasks with "buildstation task ls"`) {
		t.Fatalf("task pr t9: exit %d, stderr %q", r.code, r.stderr)
	}
}
