package cli_test

import (
	"strings"
	"testing"
)

// Completion asks the running station for the names it offers: task ids
// with their titles, project names, for the first argument only.
func TestCompletionAsksTheStation(t *testing.T) {
	s := startBoard(t)
	id := s.addTask(t, "Fix the login page")
	r := run(t, "", "--home", s.home, "__complete", "task", "show", "")
	if r.code != 0 || !strings.Contains(r.stdout, id+"\tFix the login page\n") {
		t.Errorf("completing task show: exit %d\n%s", r.code, r.stdout)
	}
	if r := run(t, "", "--home", s.home, "__complete", "task", "show", id, ""); strings.Contains(r.stdout, id+"\t") {
		t.Errorf("completing task show's second argument offers ids:\n%s", r.stdout)
	}
	if r := run(t, "", "--home", s.home, "__complete", "project", "pause", "w"); !strings.Contains(r.stdout, "web\n") {
		t.Errorf("completing project pause: %q", r.stdout)
	}
	if r := run(t, "", "--home", s.home, "__complete", "project", "pause", "x"); strings.Contains(r.stdout, "web") {
		t.Errorf("completing project pause x offers web: %q", r.stdout)
	}
	if r := run(t, "", "--home", s.home, "__complete", "task", "add", "--project", ""); !strings.Contains(r.stdout, "web\n") {
		t.Errorf("completing --project: %q", r.stdout)
	}
}
