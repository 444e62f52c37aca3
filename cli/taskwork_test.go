//go:build !windows

package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// gitAgent is the agent of startGit's sessions: in its worktree it commits
// $0/work.txt as work.txt ("fix login"), then says its session id and
// token in $0/id, then reads what is typed to it.
const gitAgent = `cp "$0/work.txt" work.txt && git add work.txt && git commit -qm 'fix login' && ` + agentScript

// startGit is startSessions on a git project ("web", on main) whose
// tasks get worktrees, with gate as its gate; work is what its agents
// commit. It returns the project's folder too.
func startGit(t *testing.T, gate, work string) (s *station, dir, repo string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "work.txt"), []byte(work), 0o600); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: []string{"sh", "-c", gitAgent, dir}, Run: true, Git: true, Gate: gate, Dirs: dirs})
	return &station{home: serve(t, apitest.Areas(env.Station)), board: env.Board}, dir, dirs["web"]
}

// asAgent makes the CLI's agent commands speak as session id.
func (s *station) asAgent(t *testing.T, id, token string) {
	t.Helper()
	sf, err := apitype.ReadStationFile(s.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_URL", sf.URL)
	t.Setenv("BUILDSTATION_TOKEN", token)
	t.Setenv("BUILDSTATION_SESSION_ID", id)
}

// task show names the task's branch, its base and head, its commits, the
// diff stat and the gate's verdict with when it was checked; --json
// carries them at the top level.
func TestTaskShowCarriesTheBranchAndTheGate(t *testing.T) {
	s, dir, _ := startGit(t, "test -f work.txt", "work\n")
	s.addTask(t, "one")
	id, tok := session(t, dir)
	s.asAgent(t, id, tok)
	if r := run(t, "", "agent", "complete", "--summary", "fixed the login"); r.code != 0 {
		t.Fatalf("agent complete: %d %q", r.code, r.stderr)
	}
	out := s.ok(t, "task", "show", "t1", "--json")
	wantKeys(t, "task show", json.RawMessage(out), "branch", "base", "head", "commits", "diff_stat", "gate", "history")
	var got struct {
		supervisor.TaskWork
		State supervisor.TaskState `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.State != supervisor.TaskDone || got.Gate == nil ||
		got.Gate.Commit != got.Head || !got.Gate.Passed || got.Gate.CheckedAt.IsZero() {
		t.Fatalf("task show --json: %+v (%v)\n%s", got, err, out)
	}
	head, base := supervisor.ShortSHA(got.Head), supervisor.ShortSHA(got.Base)
	human := s.ok(t, "task", "show", "t1")
	for _, want := range []string{"branch:   " + got.Branch + " (base " + base + ", head " + head + ")", "changes:  1 file changed",
		"gate:     passes on " + head + ", checked ", "commits:  " + head + " fix login"} {
		if !strings.Contains(human, want) {
			t.Errorf("task show lacks %q:\n%s", want, human)
		}
	}
}

// A blocked task's work is looked at (diff), accepted and merged into a
// branch of the project.
func TestTaskDiffAcceptMerge(t *testing.T) {
	s, dir, repo := startGit(t, "", "work\n")
	s.addTask(t, "one")
	id, tok := session(t, dir)
	s.asAgent(t, id, tok)
	if r := run(t, "", "agent", "block", "--reason", "forgot to report"); r.code != 0 {
		t.Fatalf("agent block: %d %q", r.code, r.stderr)
	}
	s.asAgent(t, "", "") // a person's terminal from here on
	testwait.Eventually(t, 30*time.Second, func() bool { return strings.TrimSpace(s.ok(t, "session", "ls", "--json")) == "[]" },
		"the blocked task's session to end")
	if out := s.ok(t, "task", "diff", "t1", "--stat"); out != " work.txt | 1 +\n 1 file changed, 1 insertion(+)\n" {
		t.Errorf("diff --stat: %q", out)
	}
	if out := s.ok(t, "task", "accept", "t1", "--note", "looked at it"); !strings.HasPrefix(out, "t1 done") {
		t.Errorf("accept: %q", out)
	}
	if b, err := exec.Command("git", "-C", repo, "branch", "release", "main").CombinedOutput(); err != nil {
		t.Fatalf("git branch release: %v %s", err, b)
	}
	out := s.ok(t, "task", "merge", "t1", "--into", "release")
	head, err := exec.Command("git", "-C", repo, "rev-parse", "release").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "t1 merged into release at " + supervisor.ShortSHA(strings.TrimSpace(string(head))) + " (fast-forward)\n"; out != want {
		t.Errorf("merge: %q, want %q", out, want)
	}
	if b, _ := exec.Command("git", "-C", repo, "show", "release:work.txt").Output(); string(b) != "work\n" {
		t.Errorf("release's work.txt after the merge: %q", b)
	}
}

// task show says how long the task's setup took.
func TestTaskShowSaysHowLongSetupTook(t *testing.T) {
	var b strings.Builder
	cli.PrintWork(&b, &supervisor.TaskWork{Branch: "bs/t1", Base: "a", Head: "b", Setup: &supervisor.SetupRun{Command: "npm ci", OK: true, Took: 42 * time.Second,
		Copied: []string{".env", "node_modules/"}, How: "cloned"}})
	if want := "setup:    `npm ci` ok in 42s; .worktreeinclude: 2 brought in (cloned)\n"; !strings.Contains(b.String(), want) {
		t.Errorf("task show:\n%s\nwant the line %q", b.String(), want)
	}
}

// Issue 33: a committed file holding OSC 52 (clipboard), OSC 0 (title)
// and CSI 2J reached the terminal raw through task diff. The diff is
// filtered like logs; --raw prints the bytes as they are.
func TestTaskDiffFiltersEscapes(t *testing.T) {
	const evil = "\x1b]52;c;ZXZpbA==\x07clip\n\x1b]0;owned\x07title\n\x1b[2Jclear\n"
	s, dir, _ := startGit(t, "", evil)
	s.addTask(t, "x")
	session(t, dir)
	out := s.ok(t, "task", "diff", "t1")
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) || !strings.Contains(out, "+clip\n+title\n+clear") {
		t.Errorf("task diff printed %q", out)
	}
	want := "+\x1b]52;c;ZXZpbA==\x07clip\n+\x1b]0;owned\x07title\n+\x1b[2Jclear\n"
	if raw := s.ok(t, "task", "diff", "t1", "--raw"); !strings.Contains(raw, want) {
		t.Errorf("task diff --raw printed %q; want it to hold %q", raw, want)
	}
}
