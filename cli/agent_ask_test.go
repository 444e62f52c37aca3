package cli_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The PermissionRequest hook asks the station and prints the person's
// decision the way Claude Code and Codex read it; nobody deciding, it
// prints nothing and the agent shows its own dialog.
func TestAgentHookAsksAPerson(t *testing.T) {
	claudeBash := `{"session_id":"c0ffee","transcript_path":"/t.jsonl","cwd":"/src/web","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm publish --tag next","description":"Publish"},"permission_suggestions":[]}`
	codex, err := os.ReadFile("testdata/codex-permission-request.json")
	if err != nil {
		t.Fatal(err)
	}
	question := `{"hook_event_name":"PermissionRequest","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which colour?","header":"Colour","options":[{"label":"red","description":"warm"},{"label":"blue","description":"cool"}],"multiSelect":false}]}}`
	tests := []struct {
		name     string
		in       string
		decision supervisor.Decision // a person's; none: the session ends first
		asked    string              // what the station shows the person
		stdout   string
	}{
		{"allowed", claudeBash, supervisor.Decision{Behavior: "allow"}, "permission Bash: npm publish --tag next",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"},
		{"denied with a note", claudeBash, supervisor.Decision{Behavior: "deny", Note: "no"}, "permission Bash: npm publish --tag next",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"A person denied this: no"}}}` + "\n"},
		{"nobody answered", claudeBash, supervisor.Decision{}, "permission Bash: npm publish --tag next", ""},
		{"codex denied", string(codex), supervisor.Decision{Behavior: "deny"}, "permission Bash: rm -rf node_modules",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"A person denied this."}}}` + "\n"},
		{"question answered", question, supervisor.Decision{Behavior: "allow", Answer: "blue"}, "question Which colour? (red / blue)",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"answers":{"Which colour?":"blue"},"questions":[{"header":"Colour","multiSelect":false,"options":[{"description":"warm","label":"red"},{"description":"cool","label":"blue"}],"question":"Which colour?"}]}}}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agentEnv(t)
			done := make(chan result, 1)
			go func() { done <- run(t, tt.in, "agent", "hook") }()
			w := s.asked(t, "t1.1")
			if got := w.Kind + " " + w.Line(); got != tt.asked {
				t.Errorf("the station asks %q, want %q", got, tt.asked)
			}
			if tt.decision == (supervisor.Decision{}) {
				// Nobody answers: the session ends while it waits.
				if err := s.env.Station.Sessions.Block(t.Context(), "t1.1", "gone"); err != nil {
					t.Fatal(err)
				}
			} else {
				d := tt.decision
				d.Request = w.ID
				if err := s.env.Station.Asks.Decide(t.Context(), "t1.1", d); err != nil {
					t.Fatal(err)
				}
			}
			r := <-done
			if r.code != 0 || r.stderr != "" {
				t.Errorf("exit %d stderr %q", r.code, r.stderr)
			}
			if r.stdout != tt.stdout {
				t.Errorf("stdout\n got %s\nwant %s", r.stdout, tt.stdout)
			}
		})
	}
}

// A command too long to show a person whole is not asked of the station
// (which would refuse it): the hook says why on stderr and prints no
// decision, so the agent shows its own dialog, where it reads whole.
func TestAgentHookLeavesATooLargeRequestToTheAgent(t *testing.T) {
	s := agentEnv(t)
	huge := strings.Repeat("echo x; ", supervisor.MaxAskInput/8+10)
	in := `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":` + strconv.Quote(huge) + `}}`
	r := run(t, in, "agent", "hook")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "too large to show a person whole") {
		t.Errorf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if info, _ := s.env.Station.Sessions.Session("t1.1"); info.WaitingOn != nil || strings.HasPrefix(info.Why, "asks: ") {
		t.Errorf("the station was asked: %.200s", info.Why)
	}
}

// asked waits, on the station's events, for session id to wait on a
// person's decision, and returns what it asks.
func (s *station) asked(t *testing.T, id string) supervisor.WaitingOn {
	t.Helper()
	sub := s.env.Station.Sessions.Subscribe(256)
	defer sub.Close()
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		if info, ok := s.env.Station.Sessions.Session(id); ok && info.WaitingOn != nil {
			return *info.WaitingOn
		}
		select {
		case <-sub.C:
		case <-timeout.C:
			t.Fatalf("session %s asked nothing in a minute", id)
		}
	}
}
