package cli

import (
	"io"
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
