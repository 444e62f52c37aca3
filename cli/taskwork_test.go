package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// task show names the task's branch, its base and head, its commits, the
// diff stat and the gate's verdict with when it was checked; --json
// carries them at the top level.
func TestTaskShowCarriesTheBranchAndTheGate(t *testing.T) {
	s := startStation(t)
	s.fake.Work = &supervisor.TaskWork{Branch: "bs/b1/t1", Base: "1111111111aa", Head: "2222222222bb",
		Commits: []string{"2222222222 fix login"}, DiffStat: "1 file changed, 2 insertions(+)",
		Gate: &supervisor.GateCheck{Commit: "2222222222bb", Passed: true, CheckedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	s.addTask(t, "one")
	out := s.ok(t, "task", "show", "t1", "--json")
	wantKeys(t, "task show", json.RawMessage(out), "branch", "base", "head", "commits", "diff_stat", "gate", "history")
	var got struct {
		Gate supervisor.GateCheck `json:"gate"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Gate.Commit != "2222222222bb" || !got.Gate.Passed || got.Gate.CheckedAt.IsZero() {
		t.Errorf("gate in --json: %+v (%v)\n%s", got.Gate, err, out)
	}
	human := s.ok(t, "task", "show", "t1")
	for _, want := range []string{"branch:   bs/b1/t1 (base 1111111111, head 2222222222)", "changes:  1 file changed", "gate:     passes on 2222222222, checked ", "commits:  2222222222 fix login"} {
		if !strings.Contains(human, want) {
			t.Errorf("task show lacks %q:\n%s", want, human)
		}
	}
}

func TestTaskDiffAcceptMerge(t *testing.T) {
	s := startStation(t)
	s.addTask(t, "one")
	if out := s.ok(t, "task", "diff", "t1", "--stat"); out != " work.txt | 1 +\n" {
		t.Errorf("diff --stat: %q", out)
	}
	s.fake.SetTaskState("t1", supervisor.TaskBlocked, "forgot to report")
	if out := s.ok(t, "task", "accept", "t1", "--note", "looked at it"); !strings.HasPrefix(out, "t1 done") {
		t.Errorf("accept: %q", out)
	}
	if out := s.ok(t, "task", "merge", "t1", "--into", "release"); out != "t1 merged into release at 0123456789 (fast-forward)\n" {
		t.Errorf("merge: %q", out)
	}
	calls := s.fake.Calls()
	want := []apitest.Call{{Method: "TaskDiff", Arg: "t1"}, {Method: "Accept", Arg: "looked at it"}, {Method: "Merge", Arg: "release"}}
	if len(calls) < 3 || calls[len(calls)-3] != want[0] || calls[len(calls)-2] != want[1] || calls[len(calls)-1] != want[2] {
		t.Errorf("calls %+v, want %+v last", calls, want)
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
	s := startStation(t)
	s.addTask(t, "x")
	s.fake.Diff = "+\x1b]52;c;ZXZpbA==\x07clip\n+\x1b]0;owned\x07title\n+\x1b[2Jclear\n"
	out := s.ok(t, "task", "diff", "t1")
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) || !strings.Contains(out, "+clip\n+title\n+clear") {
		t.Errorf("task diff printed %q", out)
	}
	if raw := s.ok(t, "task", "diff", "t1", "--raw"); raw != s.fake.Diff {
		t.Errorf("task diff --raw printed %q", raw)
	}
}
