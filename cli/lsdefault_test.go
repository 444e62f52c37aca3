package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// A bare `task ls` shows the newest 100 tasks, oldest first, and says
// older ones are left out; --all shows every one.
func TestTaskLsShowsTheNewest100(t *testing.T) {
	s := startBoard(t)
	for range 105 {
		if _, err := s.env.Station.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	var page []supervisor.Task
	out := s.ok(t, "task", "ls", "--json")
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page) != 100 || page[0].ID != "t6" || page[99].ID != "t105" {
		t.Fatalf("task ls --json: %v, %d tasks (%s … %s); want t6 … t105", err, len(page), first(page), last(page))
	}
	r := run(t, "", "--home", s.home, "task", "ls")
	if r.code != 0 || !strings.Contains(r.stderr, "--all") || strings.Contains(r.stdout, "t5 ") {
		t.Errorf("task ls: exit %d, stderr %q", r.code, r.stderr)
	}
	out = s.ok(t, "task", "ls", "--all", "--json")
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page) != 105 || page[0].ID != "t1" {
		t.Fatalf("task ls --all: %v, %d tasks", err, len(page))
	}
	if r := run(t, "", "--home", s.home, "task", "ls", "--all", "--limit", "5"); r.code != 2 {
		t.Errorf("--all with --limit: exit %d %q", r.code, r.stderr)
	}
}

func first(ts []supervisor.Task) string {
	if len(ts) == 0 {
		return ""
	}
	return ts[0].ID
}

func last(ts []supervisor.Task) string {
	if len(ts) == 0 {
		return ""
	}
	return ts[len(ts)-1].ID
}
