package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A Claude Code hook's JSON, with the many fields the station does not read.
const claudeHook = `{"session_id":"c0ffee","transcript_path":"/tmp/t.jsonl","cwd":"/src/web","permission_mode":"default",` +
	`"hook_event_name":"Notification","message":"Claude needs your permission","notification_type":"permission_prompt"}`

func TestHookAndReviewRoutes(t *testing.T) {
	tests := []struct {
		name, path, token, body string
		status                  int
		want                    string // substring of the error; "" for 204
		call                    string // the fake's record, for 204
	}{
		{"hook with unknown fields", "/v1/agent/hook", "tok-s1", claudeHook, 204, "", "AgentHook(s1,Notification permission_prompt Claude needs your permission)"},
		{"tool hook", "/v1/agent/hook", "tok-s2", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test"},"tool_response":{"stdout":"ok"}}`, 204, "", "AgentHook(s2,PostToolUse Bash)"},
		{"hook without a name", "/v1/agent/hook", "tok-s1", `{"session_id":"x","message":"hi"}`, 400, "hook_event_name", ""},
		{"hook not json", "/v1/agent/hook", "tok-s1", `Notification`, 400, "not valid", ""},
		{"hook two values", "/v1/agent/hook", "tok-s1", `{"hook_event_name":"Stop"}{}`, 400, "one JSON object", ""},
		{"hook too big", "/v1/agent/hook", "tok-s1", `{"hook_event_name":"Stop","x":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "over", ""},
		{"hook with station token", "/v1/agent/hook", stationToken, claudeHook, 403, "use a session token", ""},
		{"hook without token", "/v1/agent/hook", "", claudeHook, 401, "bearer token", ""},
		{"approve", "/v1/agent/review", "tok-s1", `{"verdict":"approve","notes":"clean"}`, 204, "", "AgentReview(s1,approve: clean)"},
		{"approve without notes", "/v1/agent/review", "tok-s2", `{"verdict":"approve"}`, 204, "", "AgentReview(s2,approve: )"},
		{"changes", "/v1/agent/review", "tok-s1", `{"verdict":"changes","notes":"add a test"}`, 204, "", "AgentReview(s1,changes: add a test)"},
		{"changes without notes", "/v1/agent/review", "tok-s1", `{"verdict":"changes"}`, 400, "needs notes saying what must change", ""},
		{"bad verdict", "/v1/agent/review", "tok-s1", `{"verdict":"lgtm"}`, 400, `unknown verdict "lgtm"; use approve or changes`, ""},
		{"review unknown field", "/v1/agent/review", "tok-s1", `{"verdict":"approve","session_id":"s2"}`, 400, "session_id", ""},
		{"review with station token", "/v1/agent/review", stationToken, `{"verdict":"approve"}`, 403, "use a session token", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			status, body := e.do(t, "POST", tt.path, tt.token, tt.body)
			if status != tt.status {
				t.Fatalf("got %d %s, want %d", status, body, tt.status)
			}
			var got []string
			for _, c := range e.fake.Calls() {
				if strings.HasPrefix(c.Method, "Agent") {
					got = append(got, c.Method+"("+c.SessionID+","+c.Arg+")")
				}
			}
			if strings.Join(got, " ") != tt.call {
				t.Errorf("calls = %v, want %s", got, tt.call)
			}
			if tt.status == 204 {
				return
			}
			var eb struct{ Error string }
			if err := json.Unmarshal([]byte(body), &eb); err != nil || !strings.Contains(eb.Error, tt.want) {
				t.Errorf("error %q, want it to contain %q", body, tt.want)
			}
		})
	}
}

func TestClientHookAndReview(t *testing.T) {
	e := newEnv(t)
	c := e.client("tok-s2")
	if err := c.AgentHook(t.Context(), supervisor.HookEvent{Event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	if err := c.AgentReview(t.Context(), "changes", "rename it"); err != nil {
		t.Fatal(err)
	}
	err := c.AgentReview(t.Context(), "changes", "")
	var ae *apitype.Error
	if !asError(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, "notes") {
		t.Fatalf("changes without notes: err = %#v", err)
	}
	calls := e.fake.Calls()
	var got []string
	for _, c := range calls {
		got = append(got, c.Method+"("+c.SessionID+","+c.Arg+")")
	}
	want := "AddTask(,first) AddTask(,second) AgentHook(s2,Stop) AgentReview(s2,changes: rename it)"
	if strings.Join(got, " ") != want {
		t.Errorf("calls = %s, want %s", strings.Join(got, " "), want)
	}
}
