package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

func TestRoutesHappyPath(t *testing.T) {
	tests := []struct {
		method, path, token, body string
		status                    int
		want                      string // substring of the answer
	}{
		{"GET", "/v1/status", stationToken, "", 200, `"working":3`},
		{"GET", "/v1/projects", stationToken, "", 200, `"name":"web"`},
		{"POST", "/v1/projects/web/pause", stationToken, `{"reason":"flaky"}`, 204, ""},
		{"POST", "/v1/projects/web/resume", stationToken, "", 204, ""},
		{"POST", "/v1/tasks", stationToken, `{"project":"web","title":"fourth","body":"b"}`, 201, `"id":"t4"`},
		{"GET", "/v1/tasks", stationToken, "", 200, `"id":"t1"`},
		{"GET", "/v1/tasks?state=working&project=web", stationToken, "", 200, `"state":"working"`},
		{"GET", "/v1/tasks?state=done", stationToken, "", 200, `[]`},
		{"GET", "/v1/tasks/t1", stationToken, "", 200, `"history":[`},
		{"POST", "/v1/tasks/t4/cancel", stationToken, "", 200, `"state":"cancelled"`},
		{"GET", "/v1/sessions", stationToken, "", 200, `"task_id":"t1"`},
		{"GET", "/v1/sessions/t1.1", stationToken, "", 200, `"pid":`},
		{"POST", "/v1/sessions/t1.1/send", stationToken, `{"text":"hello"}`, 204, ""},
		{"POST", "/v1/sessions/t1.1/nudge", stationToken, "", 204, ""},
		{"POST", "/v1/sessions/t3.1/block", stationToken, `{"reason":"stuck"}`, 204, ""},
		{"POST", "/v1/agent/progress", "tok-s1", `{"message":"tests pass"}`, 204, ""},
		{"POST", "/v1/agent/status", "tok-s1", `{"status":"reviewing"}`, 204, ""},
		{"GET", "/v1/agent/task", "tok-s1", "", 200, `"task":{"id":"t1"`},
		{"POST", "/v1/agent/complete", "tok-s1", `{"summary":"done it"}`, 204, ""},
		{"POST", "/v1/agent/block", "tok-s2", `{"reason":"need a key"}`, 204, ""},
	}
	e := newEnv(t)
	if _, err := e.st.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "third"}); err != nil {
		t.Fatal(err)
	}
	e.env.Session(t, "t3")
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			status, body := e.do(t, tt.method, tt.path, tt.token, tt.body)
			if status != tt.status || !strings.Contains(body, tt.want) {
				t.Errorf("got %d %s, want %d containing %s", status, body, tt.status, tt.want)
			}
		})
	}
	// What the verbs did is on the board.
	for id, want := range map[string]supervisor.TaskState{"t1": supervisor.TaskDone, "t2": supervisor.TaskBlocked, "t3": supervisor.TaskBlocked, "t4": supervisor.TaskCancelled} {
		e.env.WaitTask(t, id, want)
	}
}

func TestRefusals(t *testing.T) {
	big := `{"title":"` + strings.Repeat("x", 1<<20+10) + `"}`
	tests := []struct {
		name                      string
		method, path, token, body string
		headers                   []string
		status                    int
		want                      string
	}{
		{"no token", "GET", "/v1/status", "", "", nil, 401, "bearer token"},
		{"wrong token", "GET", "/v1/status", "nope", "", nil, 401, "bearer token"},
		{"basic auth", "GET", "/v1/status", "", "", []string{"Authorization: Basic " + stationToken}, 401, "bearer token"},
		{"session token on station route", "GET", "/v1/tasks", "tok-s1", "", nil, 403, "/v1/agent/"},
		{"session token on attach", "GET", "/v1/sessions/t1.1/attach", "tok-s1", "", nil, 403, "/v1/agent/"},
		{"session token on events", "GET", "/v1/events", "tok-s1", "", nil, 403, "/v1/agent/"},
		{"station token on agent route", "POST", "/v1/agent/complete", stationToken, `{"summary":"x"}`, nil, 403, "use a session token"},
		{"station token on agent task", "GET", "/v1/agent/task", stationToken, "", nil, 403, "use a session token"},
		{"bad host", "GET", "/v1/status", stationToken, "", []string{"Host: evil.example:80"}, 403, "Host"},
		{"host with wrong port", "GET", "/v1/status", stationToken, "", []string{"Host: 127.0.0.1:1"}, 403, "Host"},
		{"origin", "GET", "/v1/status", stationToken, "", []string{"Origin: http://127.0.0.1"}, 403, "Origin"},
		{"empty origin", "GET", "/v1/status", stationToken, "", []string{"Origin:"}, 403, "Origin"},
		{"body too big", "POST", "/v1/tasks", stationToken, big, nil, 413, "over"},
		{"unknown field", "POST", "/v1/tasks", stationToken, `{"project":"web","title":"x","prio":1}`, nil, 400, "prio"},
		{"two values", "POST", "/v1/tasks", stationToken, `{"project":"web","title":"x"}{}`, nil, 400, "one JSON object"},
		{"not json", "POST", "/v1/tasks", stationToken, `title=x`, nil, 400, "not valid"},
		{"missing title", "POST", "/v1/tasks", stationToken, `{"project":"web"}`, nil, 400, "title"},
		{"bad state", "GET", "/v1/tasks?state=lost", stationToken, "", nil, 400, "todo, working"},
		{"agent session id in body", "POST", "/v1/agent/complete", "tok-s2", `{"summary":"x","session_id":"t1.1"}`, nil, 400, "session_id"},
		{"agent bad status", "POST", "/v1/agent/status", "tok-s1", `{"status":"napping"}`, nil, 400, "working or reviewing"},
		{"unknown task", "GET", "/v1/tasks/t9", stationToken, "", nil, 404, `task t9 not found; list tasks with "buildstation task ls"`},
		{"unknown task requeue", "POST", "/v1/tasks/t9/requeue", stationToken, `{}`, nil, 404, "t9 not found"},
		{"unknown session", "GET", "/v1/sessions/s9", stationToken, "", nil, 404, "session s9 not found"},
		{"unknown session send", "POST", "/v1/sessions/s9/send", stationToken, `{"text":"x"}`, nil, 404, "no live session s9"},
		{"unknown session attach", "GET", "/v1/sessions/s9/attach", stationToken, "", []string{"Connection: Upgrade", "Upgrade: buildstation-attach"}, 404, "no live session s9"},
		{"attach without upgrade", "GET", "/v1/sessions/t1.1/attach", stationToken, "", nil, 426, "Upgrade"},
		{"unknown project", "POST", "/v1/projects/nope/pause", stationToken, `{}`, nil, 404, `unknown project "nope"`},
		{"add to unknown project", "POST", "/v1/tasks", stationToken, `{"project":"nope","title":"x"}`, nil, 404, `unknown project "nope"`},
		{"requeue a working task", "POST", "/v1/tasks/t1/requeue", stationToken, `{"note":"again"}`, nil, 409, "task t1 is working"},
		{"unknown route", "GET", "/v2/nothing", stationToken, "", nil, 404, "no such API route"},
	}
	e := newEnv(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.do(t, tt.method, tt.path, tt.token, tt.body, tt.headers...)
			var eb struct{ Error string }
			if err := json.Unmarshal([]byte(body), &eb); err != nil || eb.Error == "" {
				t.Fatalf("answer is not a JSON error: %d %q", status, body)
			}
			if status != tt.status || !strings.Contains(eb.Error, tt.want) {
				t.Errorf("got %d %q, want %d containing %q", status, eb.Error, tt.status, tt.want)
			}
			if strings.Contains(eb.Error, "\n") {
				t.Errorf("error is not one line: %q", eb.Error)
			}
		})
	}
}

func TestLocalhostHostAccepted(t *testing.T) {
	e := newEnv(t)
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":")+1:]
	if status, body := e.do(t, "GET", "/v1/status", stationToken, "", "Host: localhost:"+port); status != http.StatusOK {
		t.Fatalf("localhost Host refused: %d %s", status, body)
	}
}

// An agent acts on the session its token belongs to, whatever it asks.
func TestSessionTokenActsOnOwnSession(t *testing.T) {
	e := newEnv(t)
	c := e.client("tok-s2")
	ctx := t.Context()
	if err := c.AgentProgress(ctx, "step"); err != nil {
		t.Fatal(err)
	}
	if err := c.AgentComplete(ctx, "finished"); err != nil {
		t.Fatal(err)
	}
	// t2 is done, t1 still working.
	e.env.WaitTask(t, "t2", supervisor.TaskDone)
	if tk, err := e.st.Tasks.Task(ctx, "t1"); err != nil || tk.State != supervisor.TaskWorking {
		t.Errorf("t1 = %+v, %v; want it working still", tk, err)
	}
	d, err := c.AgentTask(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.Task.ID != "t2" {
		t.Errorf("agent task = %s, want t2 (session s2's task)", d.Task.ID)
	}
}

// An ended session's token no longer opens anything.
func TestUnknownSessionTokenRefused(t *testing.T) {
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/agent/progress", "tok-s9", `{"message":"x"}`)
	if status != http.StatusUnauthorized {
		t.Fatalf("got %d, want 401", status)
	}
}
