package api_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A Claude Code hook's JSON, with the many fields the station does not read.
const claudeHook = `{"session_id":"c0ffee","transcript_path":"/tmp/t.jsonl","cwd":"/src/web","permission_mode":"default",` +
	`"hook_event_name":"Notification","message":"Claude needs your permission","notification_type":"permission_prompt"}`

// newReviewEnv serves a station whose project "web" sends completed work
// to review: task t1's work session completed it, and its review session
// runs, with token tok-r.
func newReviewEnv(t *testing.T) *testEnv {
	t.Helper()
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true, Review: true})
	e := &testEnv{env: env, st: env.Station, tokens: map[string]string{}}
	e.serve(t, api.NewServer(apitest.Areas(e.st), stationToken, nil))
	if _, err := e.st.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "first"}); err != nil {
		t.Fatal(err)
	}
	_, e.tokens["tok-s1"] = env.Session(t, "t1")
	if err := e.client("tok-s1").AgentComplete(t.Context(), "wrote it"); err != nil {
		t.Fatal(err)
	}
	_, e.tokens["tok-r"] = env.Review(t, "t1")
	return e
}

// The hook routes take an agent's hook JSON, its unknown fields too, as
// a sign of life of the token's own session; a bad one is refused in a
// sentence and reaches nothing.
func TestHookRoutes(t *testing.T) {
	tests := []struct {
		name, token, body string
		status            int
		want              string // substring of the error; "" for 204
		why               string // in the session's Why after a 204
	}{
		{"hook with unknown fields", "tok-s1", claudeHook, 204, "", "needs permission: Claude needs your permission"},
		{"tool hook", "tok-s2", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test"},"tool_response":{"stdout":"ok"}}`, 204, "", ""},
		{"hook without a name", "tok-s1", `{"session_id":"x","message":"hi"}`, 400, "hook_event_name", ""},
		{"hook not json", "tok-s1", `Notification`, 400, "not valid", ""},
		{"hook two values", "tok-s1", `{"hook_event_name":"Stop"}{}`, 400, "one JSON object", ""},
		{"hook too big", "tok-s1", `{"hook_event_name":"Stop","x":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "over", ""},
		{"hook with station token", stationToken, claudeHook, 403, "use a session token", ""},
		{"hook without token", "", claudeHook, 401, "bearer token", ""},
	}
	e := newEnv(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := e.snapshot(t)
			status, body := e.do(t, "POST", "/v1/agent/hook", tt.token, tt.body)
			if status != tt.status {
				t.Fatalf("got %d %s, want %d", status, body, tt.status)
			}
			if tt.status == 204 {
				id := "t" + strings.TrimPrefix(tt.token, "tok-s") + ".1"
				if s, _ := e.st.Sessions.Session(id); !strings.Contains(s.Why, tt.why) || s.Evidence["board"].IsZero() {
					t.Errorf("session %s: why %q, last report %v; want the hook as a sign of life (why %q)", id, s.Why, s.Evidence["board"], tt.why)
				}
				return
			}
			if after := e.snapshot(t); after != before {
				t.Errorf("a refused hook reached the station:\n%s\nwas\n%s", after, before)
			}
			var eb struct{ Error string }
			if err := json.Unmarshal([]byte(body), &eb); err != nil || !strings.Contains(eb.Error, tt.want) {
				t.Errorf("error %q, want it to contain %q", body, tt.want)
			}
		})
	}
}

// The review route settles the token's review: approve → done, changes →
// todo for another attempt with the notes; a bad review is refused in a
// sentence and leaves the task in review.
func TestReviewRoute(t *testing.T) {
	tests := []struct {
		name, token, body string
		status            int
		want              string               // substring of the error; "" for 204
		state             supervisor.TaskState // t1's after the call
		note              string               // among t1's notes after a 204
	}{
		{"approve", "tok-r", `{"verdict":"approve","notes":"clean"}`, 204, "", supervisor.TaskDone, "review approved: clean"},
		{"approve without notes", "tok-r", `{"verdict":"approve"}`, 204, "", supervisor.TaskDone, ""},
		{"changes", "tok-r", `{"verdict":"changes","notes":"add a test"}`, 204, "", supervisor.TaskTodo, "review asked for changes: add a test"},
		{"changes without notes", "tok-r", `{"verdict":"changes"}`, 400, "needs notes saying what must change", supervisor.TaskReview, ""},
		{"bad verdict", "tok-r", `{"verdict":"lgtm"}`, 400, `unknown verdict "lgtm"; use approve or changes`, supervisor.TaskReview, ""},
		{"review unknown field", "tok-r", `{"verdict":"approve","session_id":"t1.1"}`, 400, "session_id", supervisor.TaskReview, ""},
		{"review with station token", stationToken, `{"verdict":"approve"}`, 403, "use a session token", supervisor.TaskReview, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newReviewEnv(t)
			status, body := e.do(t, "POST", "/v1/agent/review", tt.token, tt.body)
			if status != tt.status {
				t.Fatalf("got %d %s, want %d", status, body, tt.status)
			}
			if tt.status == 204 {
				tk := e.env.WaitTask(t, "t1", tt.state)
				if tt.note != "" && !slices.Contains(tk.Notes, tt.note) {
					t.Errorf("t1's notes %q; want %q among them", tk.Notes, tt.note)
				}
				return
			}
			if tk, err := e.st.Tasks.Task(t.Context(), "t1"); err != nil || tk.State != tt.state {
				t.Errorf("t1 = %+v, %v after a refused review; want it %s", tk, err, tt.state)
			}
			var eb struct{ Error string }
			if err := json.Unmarshal([]byte(body), &eb); err != nil || !strings.Contains(eb.Error, tt.want) {
				t.Errorf("error %q, want it to contain %q", body, tt.want)
			}
		})
	}
}

// A work session's review is refused: only a review session judges.
func TestReviewFromAWorkSession(t *testing.T) {
	e := newEnv(t)
	status, body := e.do(t, "POST", "/v1/agent/review", "tok-s1", `{"verdict":"approve"}`)
	if status != 400 || !strings.Contains(body, "session t1.1 is not a review; finish coding with complete_task") {
		t.Fatalf("got %d %s, want 400 saying it is not a review", status, body)
	}
}

func TestClientHookAndReview(t *testing.T) {
	e := newReviewEnv(t)
	c := e.client("tok-r")
	c.SessionID = "" // set below, once known
	for _, s := range e.st.Sessions.Sessions() {
		if s.Kind == supervisor.KindReview {
			c.SessionID = s.ID
		}
	}
	if err := c.AgentHook(t.Context(), supervisor.HookEvent{Event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	err := c.AgentReview(t.Context(), "changes", "")
	var ae *apitype.Error
	if !asError(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, "notes") {
		t.Fatalf("changes without notes: err = %#v", err)
	}
	if err := c.AgentReview(t.Context(), "changes", "rename it"); err != nil {
		t.Fatal(err)
	}
	tk := e.env.WaitTask(t, "t1", supervisor.TaskTodo)
	if tk.Attempt != 2 {
		t.Errorf("t1 = %+v after changes, want attempt 2", tk)
	}
}
