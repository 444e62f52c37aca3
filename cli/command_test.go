package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// optionsOf runs a command line through a command's constructor with a
// runF that keeps the options: what the command would run with, with no
// station and no terminal.
func optionsOf[O any](t *testing.T, newCmd func(*env, func(*O) error) *cobra.Command, args ...string) O {
	t.Helper()
	e := &env{ctx: t.Context(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	var got *O
	c := newCmd(e, func(o *O) error { got = o; return nil })
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	if err := c.Execute(); err != nil {
		t.Fatalf("%s %q: %v", c.Name(), args, err)
	}
	if got == nil {
		t.Fatalf("%s %q: runF was not called", c.Name(), args)
	}
	return *got
}

// Each command's flags and arguments land in its options, flags before,
// between or after the arguments.
func TestTaskOptions(t *testing.T) {
	if o := optionsOf(t, newTaskAcceptCmd, "--note", "flaky upstream", "t3"); o.ID != "t3" || o.Note != "flaky upstream" {
		t.Errorf("task accept: %+v", o)
	}
	if o := optionsOf(t, newTaskRequeueCmd, "t3", "--anywhere", "--note=v2"); o.ID != "t3" || !o.Anywhere || o.Note != "v2" {
		t.Errorf("task requeue: %+v", o)
	}
	if o := optionsOf(t, newTaskMergeCmd, "t3", "--into", "release"); o.ID != "t3" || o.Into != "release" {
		t.Errorf("task merge: %+v", o)
	}
	if o := optionsOf(t, newTaskDiffCmd, "--stat", "t4"); o.ID != "t4" || !o.Stat || o.Raw {
		t.Errorf("task diff: %+v", o)
	}
	if o := optionsOf(t, newTaskShowCmd, "t5", "--json"); o.ID != "t5" || !o.JSON {
		t.Errorf("task show: %+v", o)
	}
	if o := optionsOf(t, newTaskCancelCmd, "t6"); o.ID != "t6" {
		t.Errorf("task cancel: %+v", o)
	}
	if o := optionsOf(t, newTaskAddCmd, "--project", "web", "--title", "Fix it", "--body-file", "-", "--json"); o.Project != "web" || o.Title != "Fix it" || o.BodyFile != "-" || o.Body != "" || !o.JSON {
		t.Errorf("task add: %+v", o)
	}
	// --limit 0 is a choice (all from the oldest), not the bare default.
	if o := optionsOf(t, newTaskLsCmd, "--limit", "0", "--state", "blocked"); !o.LimitGiven || o.Limit != 0 || o.State != "blocked" {
		t.Errorf("task ls --limit 0: %+v", o)
	}
	if o := optionsOf(t, newTaskLsCmd); o.LimitGiven || o.All {
		t.Errorf("task ls: %+v", o)
	}
}

func TestProjectOptions(t *testing.T) {
	if o := optionsOf(t, newProjectPauseCmd, "web", "--reason", "CI is down"); o.Name != "web" || o.Reason != "CI is down" {
		t.Errorf("project pause: %+v", o)
	}
	if o := optionsOf(t, newProjectResumeCmd, "web"); o.Name != "web" {
		t.Errorf("project resume: %+v", o)
	}
	if o := optionsOf(t, newProjectShowCmd, "--json", "web"); o.Name != "web" || !o.JSON {
		t.Errorf("project show: %+v", o)
	}
	if o := optionsOf(t, newProjectLsCmd, "--json"); !o.JSON {
		t.Errorf("project ls: %+v", o)
	}
	if o := optionsOf(t, newProjectRmCmd, "web"); o.Name != "web" {
		t.Errorf("project rm: %+v", o)
	}
	if o := optionsOf(t, newProjectSetCmd, "web", "idle_window=15m", "nudge="); o.Name != "web" || len(o.Set) != 2 || o.Set["idle_window"] != "15m" || o.Set["nudge"] != "" {
		t.Errorf("project set: %+v", o)
	}
	// --command ends project add's flags: the agent's own pass through.
	o := optionsOf(t, newProjectAddCmd, "/src/web", "--setup=", "--dry-run", "--name", "api", "--command", "sh", "--name", "x")
	if p := o.Project; p.Path != abs(t, "/src/web") || p.Name != "api" || !p.DryRun || p.Setup != "" || !o.SetupGiven || o.Accept ||
		strings.Join(p.Command, " ") != "sh --name x" {
		t.Errorf("project add: %+v", o)
	}
}

func abs(t *testing.T, path string) string {
	a, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestSessionOptions(t *testing.T) {
	if o := optionsOf(t, newSessionSendCmd, "t2", "--", "--help", "me"); o.ID != "t2" || o.Text != "--help me" {
		t.Errorf("session send: %+v", o)
	}
	if o := optionsOf(t, newSessionAllowCmd, "t7", "--request", "3f9a", "--note", "once"); o.Verb != "allow" || o.ID != "t7" || o.Request != "3f9a" || o.Text != "once" {
		t.Errorf("session allow: %+v", o)
	}
	if o := optionsOf(t, newSessionDenyCmd, "--note", "no", "t7"); o.Verb != "deny" || o.ID != "t7" || o.Request != "" || o.Text != "no" {
		t.Errorf("session deny: %+v", o)
	}
	if o := optionsOf(t, newSessionAnswerCmd, "t7", "--request", "3f9a", "use", "staging"); o.Verb != "answer" || o.ID != "t7" || o.Request != "3f9a" || o.Text != "use staging" {
		t.Errorf("session answer: %+v", o)
	}
	if o := optionsOf(t, newSessionAttachCmd, "t2.1"); o.ID != "t2.1" {
		t.Errorf("session attach: %+v", o)
	}
	if o := optionsOf(t, newSessionLsCmd, "--json"); !o.JSON {
		t.Errorf("session ls: %+v", o)
	}
}

func TestAgentOptions(t *testing.T) {
	if o := optionsOf(t, newAgentCompleteCmd, "--summary", "fixed the race"); o.Text != "fixed the race" || o.flag != "summary" {
		t.Errorf("agent complete: %+v", o)
	}
	if o := optionsOf(t, newAgentBlockCmd, "--reason=needs a key"); o.Text != "needs a key" || o.flag != "reason" {
		t.Errorf("agent block: %+v", o)
	}
	if o := optionsOf(t, newAgentProgressCmd, "half", "the", "tests"); o.Message != "half the tests" {
		t.Errorf("agent progress: %+v", o)
	}
	if o := optionsOf(t, newAgentStatusCmd, "reviewing"); o.Status != "reviewing" {
		t.Errorf("agent status: %+v", o)
	}
	if o := optionsOf(t, newAgentReviewCmd, "changes", "--notes", "say what to do"); o.Verdict != "changes" || o.Notes != "say what to do" {
		t.Errorf("agent review: %+v", o)
	}
	// The hook parses nothing: whatever it is given is its to refuse.
	if o := optionsOf(t, newAgentHookCmd, "--bogus", "x"); strings.Join(o.Args, " ") != "--bogus x" {
		t.Errorf("agent hook: %+v", o)
	}
}

func TestOtherOptions(t *testing.T) {
	if o := optionsOf(t, newStatusCmd, "--json"); !o.JSON {
		t.Errorf("status: %+v", o)
	}
	if o := optionsOf(t, newLogsCmd, "-f", "t2", "--raw"); o.ID != "t2" || !o.Follow || !o.Raw {
		t.Errorf("logs: %+v", o)
	}
	if o := optionsOf(t, newVersionCmd, "--check"); !o.Check {
		t.Errorf("version: %+v", o)
	}
	if o := optionsOf(t, newSourceLoginCmd, "github", "--host", "ghe.example.com"); o.Kind != "github" || o.Host != "ghe.example.com" {
		t.Errorf("source login: %+v", o)
	}
	if o := optionsOf(t, newSourceLsCmd, "--json"); !o.JSON {
		t.Errorf("source ls: %+v", o)
	}
	if o := optionsOf(t, newNotifyTestCmd, "--json"); !o.JSON {
		t.Errorf("notify test: %+v", o)
	}
	optionsOf(t, newNotifyLoginCmd)
	if o := optionsOf(t, newBoardMigrateCmd, "--json"); !o.JSON {
		t.Errorf("board migrate: %+v", o)
	}
	if o := optionsOf(t, newBoardStatusCmd); o.JSON {
		t.Errorf("board status: %+v", o)
	}
	o := optionsOf(t, newBoardCapCmd, "web", "3", "--stations", "buildbox,laptop", "--block-window", "10m")
	if o.Project != "web" || o.Concurrency != "3" || !o.StationsGiven || strings.Join(o.Stations, " ") != "buildbox laptop" || o.Windows != [3]string{"", "10m", ""} {
		t.Errorf("board cap: %+v", o)
	}
	if o := optionsOf(t, newBoardCapCmd, "web"); o.Concurrency != "" || o.StationsGiven {
		t.Errorf("board cap web: %+v", o)
	}
}
