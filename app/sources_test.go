package app

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// An imported task's card names its issue and links to it; a task added
// by hand has no link.
func TestCardNamesItsIssue(t *testing.T) {
	tk := task("t1", supervisor.TaskTodo)
	tk.External = &supervisor.External{Kind: "linear", ID: "ENG-142", URL: "https://linear.app/acme/issue/ENG-142"}
	c := CardFor(tk, nil, t0)
	if c.Issue != "ENG-142" || c.IssueURL != tk.External.URL || !strings.HasSuffix(c.Meta, " · ENG-142") {
		t.Fatalf("card = %+v", c)
	}
	if c := CardFor(task("t2", supervisor.TaskTodo), nil, t0); c.Issue != "" || c.IssueURL != "" {
		t.Fatalf("a hand-made task's card = %+v", c)
	}
}

// A source with a problem is a line of the tray's menu, in status's words.
func TestTrayShowsSourceProblems(t *testing.T) {
	// A source belongs to a project, so the station has one: the first
	// line is then the problem, not the first project's invitation.
	s := Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}, Sources: []supervisor.SourceState{
		{Name: "github acme/web", OK: true},
		{Name: "linear ENG", Problem: "linear ENG refused the token (401: expired or revoked): run `buildstation source login linear` with a new one"},
	}}
	var got []string
	for _, l := range TrayLines(s) {
		got = append(got, l.Label)
	}
	if len(got) < 2 || !strings.HasPrefix(got[0], "Source: linear ENG refused the token (401") {
		t.Fatalf("menu = %q", got)
	}
	if n := len(SourceProblems(s)); n != 1 {
		t.Fatalf("%d problems, want 1", n)
	}
}

// The station's warnings (which notifier macOS allowed, and why) are in
// the tray's menu, not only in "buildstation status".
func TestTrayShowsStationWarnings(t *testing.T) {
	w := "notices go through osascript: macOS refused the notification center to this build (ad-hoc signed) and terminal-notifier is not installed; clicks open nothing"
	s := Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}, Warnings: []string{w}}
	found := false
	for _, l := range TrayLines(s) {
		if strings.HasPrefix(l.Label, "Warning: notices go through osascript") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no warning line in %+v", TrayLines(s))
	}
	if s.Connected = false; len(TrayLines(s)) > 0 {
		for _, l := range TrayLines(s) {
			if strings.HasPrefix(l.Label, "Warning:") {
				t.Fatalf("a station that is not connected still warns: %+v", l)
			}
		}
	}
}

// An imported task's card shows the latest step of its issue and pull
// request (the history's reason: taken back, sent back by its pull
// request, approved, merged); a blocked card shows its reason as evidence
// instead.
func TestCardShowsThePullRequestsStep(t *testing.T) {
	tk := task("t1", supervisor.TaskDone)
	tk.External = &supervisor.External{Kind: "github", ID: "acme/web#7", URL: "https://github.com/acme/web/issues/7"}
	tk.Reason = "its pull request #251 was merged"
	if c := CardFor(tk, nil, t0); c.Upstream != "its pull request #251 was merged" {
		t.Fatalf("card = %+v", c)
	}
	tk.State, tk.Reason = supervisor.TaskBlocked, "its pull request #251 asked for more …, after 3 automatic rounds"
	if c := CardFor(tk, nil, t0); c.Upstream != "" || c.Reason == "" {
		t.Fatalf("a blocked card = %+v", c)
	}
}
