package supervisor

import (
	"errors"
	"testing"
)

// The words of these errors are what a CLI user reads after "add task: "
// and the like, the same from either board.
func TestBoardInputChecks(t *testing.T) {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for _, c := range []struct {
		name, got, want string
	}{
		{"new task", errText(NewTask{Project: "p", Title: "x"}.Validate()), ""},
		{"new task, no title", errText(NewTask{Project: "p", Title: " \t"}.Validate()), "a task needs a project and a title"},
		{"new task, no project", errText(NewTask{Title: "x"}.Validate()), "a task needs a project and a title"},
		{"gate", errText(CheckGateResult("p", "abc")), ""},
		{"gate, no sha", errText(CheckGateResult("p", "")), "save gate result: empty project or sha"},
		{"gate, no project", errText(CheckGateResult("", "abc")), "save gate result: empty project or sha"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}

	for _, c := range []struct {
		project string
		paused  bool
		verb    string
		err     string
	}{
		{"p", true, "pause", ""},
		{"p", false, "resume", ""},
		{"", true, "", "pause: empty project name"},
		{"", false, "", "pause: empty project name"},
	} {
		verb, err := CheckPause(c.project, c.paused)
		if verb != c.verb || errText(err) != c.err {
			t.Errorf("CheckPause(%q, %v) = %q, %v; want %q, %q", c.project, c.paused, verb, err, c.verb, c.err)
		}
	}

	for _, c := range []struct {
		r    SessionRecord
		n    int64
		err  string
		gone bool
	}{
		{SessionRecord{ID: "s1", TaskID: "t4"}, 4, "", false},
		{SessionRecord{TaskID: "t4"}, 0, "save session: empty id", false},
		{SessionRecord{ID: "s1", TaskID: "t04"}, 0, "save session s1: task t04: not found", true},
	} {
		n, err := CheckSession(c.r)
		if n != c.n || errText(err) != c.err || errors.Is(err, ErrNotFound) != c.gone {
			t.Errorf("CheckSession(%+v) = %d, %v; want %d, %q", c.r, n, err, c.n, c.err)
		}
	}

	for _, c := range []struct {
		after string
		n     int64
		bad   bool
	}{
		{"", 0, false},
		{"t9", 9, false},
		{"9", 0, true},
	} {
		n, err := TaskFilter{After: c.after}.Cursor()
		if n != c.n || (err != nil) != c.bad || (c.bad && !errors.Is(err, ErrInvalid)) {
			t.Errorf("Cursor of After %q = %d, %v; want %d (bad %v)", c.after, n, err, c.n, c.bad)
		}
	}
}
