package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// mcpEnv is a station served as the daemon serves it: a real loopback
// listener, the guard, and MCP mounted behind RequireSession.
type mcpEnv struct {
	*testEnv
	url string // http://127.0.0.1:PORT
}

// newMCPEnv serves newEnv's station so.
func newMCPEnv(t *testing.T) *mcpEnv {
	t.Helper()
	return serveMCP(t, newStation(t))
}

func serveMCP(t *testing.T, e *testEnv) *mcpEnv {
	t.Helper()
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	srv.Mount("/mcp", srv.RequireSession(api.NewMCPHandler(apitest.Areas(e.st), nil)))
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return &mcpEnv{testEnv: e, url: "http://" + ln.Addr().String()}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`

// post sends one raw JSON-RPC message to /mcp, as an MCP client would;
// headers are "Key: value" strings.
func (e *mcpEnv) post(t *testing.T, method, token, body string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, e.url+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+e.tok(token))
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		if strings.EqualFold(k, "Host") {
			req.Host = strings.TrimSpace(v)
			continue
		}
		req.Header.Set(k, strings.TrimSpace(v))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestMCPRefusals(t *testing.T) {
	e := newMCPEnv(t)
	before := e.snapshot(t)
	port := e.url[strings.LastIndex(e.url, ":")+1:]
	tests := []struct {
		name, method, token string
		headers             []string
		status              int
		want                string
	}{
		{"no token", "POST", "", nil, 401, "bearer token"},
		{"wrong token", "POST", "nope", nil, 401, "bearer token"},
		{"ended session's token", "POST", "tok-s9", nil, 401, "bearer token"},
		{"station token", "POST", stationToken, nil, 403, "use a session token"},
		{"foreign host", "POST", "tok-s1", []string{"Host: evil.example:" + port}, 403, "Host"},
		{"host with wrong port", "POST", "tok-s1", []string{"Host: 127.0.0.1:1"}, 403, "Host"},
		{"origin", "POST", "tok-s1", []string{"Origin: http://127.0.0.1:" + port}, 403, "Origin"},
		{"null origin", "POST", "tok-s1", []string{"Origin: null"}, 403, "Origin"},
		{"event stream", "GET", "tok-s1", nil, 405, "POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := e.post(t, tt.method, tt.token, initializeBody, tt.headers...)
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.want) {
				t.Errorf("got %d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.want)
			}
			if resp.Header.Get("Mcp-Session-Id") != "" {
				t.Errorf("a refused request opened an MCP session")
			}
		})
	}
	if after := e.snapshot(t); after != before {
		t.Errorf("a refused request reached the station:\n%s\nwas\n%s", after, before)
	}
}

// A call acts on the session of the token that made it, whatever
// Mcp-Session-Id it carries: the station keeps no MCP sessions, so none can
// be driven by another token (or go stale across a restart).
func TestMCPCallActsOnItsOwnToken(t *testing.T) {
	e := newMCPEnv(t)
	resp := e.post(t, "POST", "tok-s1", initializeBody)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("initialize: %d %s", resp.StatusCode, b)
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.Fatalf("initialize opened an MCP session %q; the station keeps none", sid)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"report_progress","arguments":{"message":"mine"}}}`
	resp = e.post(t, "POST", "tok-s2", call, "Mcp-Session-Id: t1.1-session-from-before", "Mcp-Protocol-Version: 2025-06-18")
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a call with an unknown Mcp-Session-Id: %d %s, want 200", resp.StatusCode, b)
	}
	if s, _ := e.st.Sessions.Session("t2.1"); s.Why != "progress: mine" {
		t.Errorf("t2.1's last report %q, want the progress", s.Why)
	}
	if s, _ := e.st.Sessions.Session("t1.1"); s.Evidence["board"] != (time.Time{}) {
		t.Errorf("t1.1 had a report (%q): the call acted on another token's session", s.Why)
	}
}

// bearer adds a session token to every request, as Claude Code does from
// its --mcp-config headers.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (e *mcpEnv) connect(t *testing.T, token string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   e.url + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{e.tok(token)}},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its text and whether it is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError
}

func TestMCPTools(t *testing.T) {
	e := newMCPEnv(t)
	cs := e.connect(t, "tok-s2")

	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{"block_task", "complete_review", "complete_task", "get_task", "report_progress", "set_status"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	text, isErr := call(t, cs, "get_task", nil)
	var brief api.TaskBrief
	if isErr || json.Unmarshal([]byte(text), &brief) != nil {
		t.Fatalf("get_task = %q (error %v)", text, isErr)
	}
	s2, _ := e.st.Sessions.Session("t2.1")
	if brief.ID != "t2" || brief.Title != "second" || brief.Attempt != 1 || brief.Dir == "" || brief.Dir != s2.Dir || brief.Branch != s2.Branch || brief.Kind != "work" {
		t.Errorf("get_task = %+v, want session t2.1's task t2 with its dir %q and branch %q", brief, s2.Dir, s2.Branch)
	}
	if brief.Notes == nil || brief.EarlierReasons == nil {
		t.Errorf("get_task has null lists: %s", text)
	}

	if text, isErr := call(t, cs, "report_progress", map[string]any{"message": "tests pass"}); isErr {
		t.Fatalf("report_progress: %s", text)
	}
	if s, _ := e.st.Sessions.Session("t2.1"); s.Why != "progress: tests pass" {
		t.Errorf("t2.1's last report %q after report_progress", s.Why)
	}
	if text, isErr := call(t, cs, "set_status", map[string]any{"status": "reviewing"}); isErr || text != "Status set to reviewing." {
		t.Fatalf("set_status: %s", text)
	}
	if s, _ := e.st.Sessions.Session("t2.1"); s.State != supervisor.SessReviewing {
		t.Errorf("t2.1 is %s after set_status reviewing", s.State)
	}
	if text, isErr := call(t, cs, "complete_task", map[string]any{"summary": "done it"}); isErr || !strings.Contains(text, "stop here") {
		t.Fatalf("complete_task: %s", text)
	}
	if tk := e.env.WaitTask(t, "t2", supervisor.TaskDone); tk.Summary != "done it" {
		t.Errorf("t2 done with summary %q", tk.Summary)
	}
	if tk, err := e.st.Tasks.Task(t.Context(), "t1"); err != nil || tk.State != supervisor.TaskWorking {
		t.Errorf("t1 = %+v, %v; the calls acted on another token's task", tk, err)
	}
}

func TestMCPReviewAndBlock(t *testing.T) {
	r := serveMCP(t, newReviewEnv(t))
	if text, isErr := call(t, r.connect(t, "tok-r"), "complete_review", map[string]any{"verdict": "changes", "notes": "add a test"}); isErr {
		t.Fatalf("complete_review: %s", text)
	}
	if tk := r.env.WaitTask(t, "t1", supervisor.TaskTodo); tk.Attempt != 2 {
		t.Errorf("t1 = %+v after the review asked for changes, want attempt 2", tk)
	}

	e := newMCPEnv(t)
	if text, isErr := call(t, e.connect(t, "tok-s1"), "block_task", map[string]any{"reason": "needs a key"}); isErr {
		t.Fatalf("block_task: %s", text)
	}
	if tk := e.env.WaitTask(t, "t1", supervisor.TaskBlocked); tk.Reason != "agent: needs a key" {
		t.Errorf("t1 blocked for %q", tk.Reason)
	}
}

// Bad arguments and station refusals come back as tool errors (IsError)
// holding a sentence that says what to do, and move no task.
func TestMCPToolErrors(t *testing.T) {
	e := serveMCP(t, newStation(t, func(r *apitest.Rig) { r.Faults = true }))
	cs := e.connect(t, "tok-s1")
	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		fail  error  // the board's answer to the tool's move of the task
		want  string // the whole text, or a part when partial
		whole bool
	}{
		{"empty summary", "complete_task", map[string]any{"summary": "  "}, nil, "complete_task needs a summary of what you did and how you checked it", true},
		{"empty reason", "block_task", map[string]any{"reason": ""}, nil, "block_task needs a reason saying what a person must do", true},
		{"empty message", "report_progress", map[string]any{"message": ""}, nil, "report_progress needs a message saying what you are doing", true},
		{"changes without notes", "complete_review", map[string]any{"verdict": "changes", "notes": ""}, nil, "a review asking for changes needs notes saying what must change", true},
		{"bad status", "set_status", map[string]any{"status": "napping"}, nil, "status", false},
		{"bad verdict", "complete_review", map[string]any{"verdict": "lgtm", "notes": "x"}, nil, "verdict", false},
		{"missing summary", "complete_task", map[string]any{}, nil, "summary", false},
		{"session named in arguments", "complete_task", map[string]any{"summary": "x", "session_id": "t2.1"}, nil, "session_id", false},
		{"station refuses", "complete_task", map[string]any{"summary": "x"}, &supervisor.StateError{ID: "t1", Have: supervisor.TaskDone, Want: []supervisor.TaskState{supervisor.TaskWorking}}, "task t1 is already done; nothing to do", true},
		{"review in a work session", "complete_review", map[string]any{"verdict": "approve", "notes": ""}, nil, "session t1.1 is not a review; finish coding with complete_task", true},
		{"station breaks", "block_task", map[string]any{"reason": "x"}, errors.New("disk full"), "the station failed: settle task t1: disk full; try again in a minute, and if it fails again call block_task with this error", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.fail != nil {
				e.env.BreakNextMove(tt.fail)
			}
			text, isErr := call(t, cs, tt.tool, tt.args)
			if !isErr {
				t.Fatalf("%s succeeded: %s", tt.tool, text)
			}
			if (tt.whole && text != tt.want) || !strings.Contains(text, tt.want) {
				t.Errorf("text = %q, want %q", text, tt.want)
			}
			if strings.Contains(text, "\n") {
				t.Errorf("text is not one line: %q", text)
			}
			for _, id := range []string{"t1", "t2"} {
				if tk, err := e.st.Tasks.Task(t.Context(), id); err != nil || tk.State != supervisor.TaskWorking {
					t.Errorf("%s = %+v, %v after a refused call; want it working", id, tk, err)
				}
			}
		})
	}
}

func TestEarlierReasons(t *testing.T) {
	hist := []supervisor.Transition{
		{To: supervisor.TaskWorking, Attempt: 1},
		{To: supervisor.TaskBlocked, Attempt: 1, Reason: "watchdog: idle 10m"},
		{To: supervisor.TaskTodo, Attempt: 2, Reason: "  "},
		{To: supervisor.TaskTodo, Attempt: 2, Reason: "review asked for changes: add a test"},
	}
	got := strings.Join(api.EarlierReasons(hist), " | ")
	want := "attempt 1, blocked: watchdog: idle 10m | attempt 2, todo: review asked for changes: add a test"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if r := api.EarlierReasons(nil); r == nil || len(r) != 0 {
		t.Errorf("no history: %#v, want an empty list", r)
	}
}
