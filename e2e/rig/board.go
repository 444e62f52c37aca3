//go:build unix

package rig

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Task is a task as `task show --json` prints it.
type Task struct {
	ID        string    `json:"id"`
	Project   string    `json:"project"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Attempt   int       `json:"attempt"`
	Reason    string    `json:"reason"`
	Summary   string    `json:"summary"`
	Notes     []string  `json:"notes"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	History   []struct {
		From, To, Reason, Actor string
		Attempt                 int
	} `json:"history"`
}

// Session is a session as `session ls --json` prints it.
type Session struct {
	ID           string               `json:"id"`
	TaskID       string               `json:"task_id"`
	State        string               `json:"state"`
	PID          int                  `json:"pid"`
	LastOutputAt time.Time            `json:"last_output_at"`
	NudgedAt     *time.Time           `json:"nudged_at"`
	Why          string               `json:"why"`
	Evidence     map[string]time.Time `json:"evidence"`
	Dir          string               `json:"dir"`
	Station      string               `json:"station"`
	WaitingOn    *struct {
		ID      string   `json:"id"`
		Kind    string   `json:"kind"`
		Tool    string   `json:"tool"`
		Input   string   `json:"input"`
		Options []string `json:"options"`
	} `json:"waiting_on"`
	Activity string `json:"activity"`
	Usage    *struct {
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
		ContextPct   float64 `json:"context_pct"`
		Model        string  `json:"model"`
	} `json:"usage"`
}

// MustJSON runs the CLI, which must exit 0, and decodes its output into v.
func (s *Station) MustJSON(v any, args ...string) {
	s.T.Helper()
	out := s.Must(args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		s.T.Fatalf("buildstation %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// AddTask adds a task whose body holds the fake agent's script.
func (s *Station) AddTask(project, title, script string) string {
	s.T.Helper()
	return strings.TrimSpace(s.Must("task", "add", "--project", project, "--title", title, "--body", "script: "+script))
}

// Task is task id as the board has it now.
func (s *Station) Task(id string) Task {
	s.T.Helper()
	var t Task
	s.MustJSON(&t, "task", "show", id, "--json")
	return t
}

// Sessions are the station's sessions.
func (s *Station) Sessions() []Session {
	s.T.Helper()
	var ss []Session
	s.MustJSON(&ss, "session", "ls", "--json")
	return ss
}

// SessionOf is the session of task taskID, if it has one.
func (s *Station) SessionOf(taskID string) (Session, bool) {
	s.T.Helper()
	for _, x := range s.Sessions() {
		if x.TaskID == taskID {
			return x, true
		}
	}
	return Session{}, false
}

// WaitState polls until task id is in state, or fails after d. Polling the
// CLI is what a script would do; the station itself never polls.
func (s *Station) WaitState(id, state string, d time.Duration) Task {
	s.T.Helper()
	var t Task
	Eventually(s.T, d, func() error {
		if t = s.Task(id); t.State != state {
			return fmt.Errorf("task %s is %s (%s)", id, t.State, t.Reason)
		}
		return nil
	}, fmt.Sprintf("task %s %s", id, state), "station log:", s.Log, Later(func() string { return "transcript:\n" + s.Transcript(id, t.Attempt) }))
	return t
}

// WaitTranscript waits up to d for the first attempt's transcript of task
// id to hold want.
func (s *Station) WaitTranscript(id, want string, d time.Duration) {
	s.T.Helper()
	Eventually(s.T, d, func() bool { return strings.Contains(s.Transcript(id, 1), want) },
		fmt.Sprintf("the transcript of %s to show %q", id, want),
		Later(func() string { return "transcript:\n" + s.Transcript(id, 1) }), "station log:", s.Log)
}

// WaitSession waits up to d for task id's session to be listed with a pid
// (a session is listed a moment before its pid is known) and, unless ok is
// nil, to pass ok; it returns the session.
func (s *Station) WaitSession(id string, d time.Duration, ok func(Session) bool) Session {
	s.T.Helper()
	var got Session
	Eventually(s.T, d, func() error {
		var listed bool
		if got, listed = s.SessionOf(id); !listed {
			return errors.New("none listed")
		}
		if got.PID == 0 || ok != nil && !ok(got) {
			return fmt.Errorf("listed as %+v", got)
		}
		return nil
	}, "the session of task "+id, Later(func() string { return fmt.Sprintf("task: %+v", s.Task(id)) }), "station log:", s.Log)
	return got
}
