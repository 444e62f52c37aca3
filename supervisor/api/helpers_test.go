package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/station"
)

const stationToken = "station-secret"

type testEnv struct {
	env apitest.Env
	st  *station.Station
	srv *httptest.Server
	// tokens are the real tokens of the sessions' agents by the names the
	// tests use: tok-s1 is session t1.1's, tok-s2 session t2.1's.
	tokens map[string]string
}

// newEnv serves the real station (apitest.Start) running project "web",
// three sessions at once, whose agent is this test binary (apitest.Agent):
// tasks t1 ("first") and t2 ("second") are working in sessions t1.1
// (token tok-s1) and t2.1 (token tok-s2); a third task added starts a
// session too.
func newEnv(t *testing.T) *testEnv {
	t.Helper()
	e := newStation(t)
	e.serve(t, api.NewServer(apitest.Areas(e.st), stationToken, nil))
	return e
}

// newStation is newEnv's station, not served yet (serve); each edit
// changes what it is started with (Rig.Faults, say).
func newStation(t testing.TB, edits ...func(*apitest.Rig)) *testEnv {
	t.Helper()
	rig := apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true, Concurrency: 3}
	for _, edit := range edits {
		edit(&rig)
	}
	env := apitest.Start(t, rig)
	e := &testEnv{env: env, st: env.Station, tokens: map[string]string{}}
	for i, title := range []string{"first", "second"} {
		tk, err := env.Station.Tasks.AddTask(context.Background(), supervisor.NewTask{Project: "web", Title: title})
		if err != nil {
			t.Fatal(err)
		}
		_, tok := env.Session(t, tk.ID)
		e.tokens[fmt.Sprintf("tok-s%d", i+1)] = tok
	}
	return e
}

// serve serves s over loopback for e.
func (e *testEnv) serve(t testing.TB, s *api.Server) {
	e.srv = httptest.NewServer(s.Handler())
	t.Cleanup(e.srv.Close)
}

// newBoardEnv serves the real station over a real SQLite board
// (apitest.Board) with project "web", no task and no session running.
func newBoardEnv(t *testing.T) (*station.Station, *testEnv) {
	t.Helper()
	st := apitest.Board(t, "web")
	srv := httptest.NewServer(api.NewServer(apitest.Areas(st), stationToken, nil).Handler())
	t.Cleanup(srv.Close)
	return st, &testEnv{st: st, srv: srv}
}

// tok is the token a test names: tok-s1 and tok-s2 are the sessions'
// real tokens, anything else is itself.
func (e *testEnv) tok(name string) string {
	if tok, ok := e.tokens[name]; ok {
		return tok
	}
	return name
}

// client calls e with token (tok); a session's (tok-sN) makes an agent's
// client of session tN.1, which has the station prove it holds its token.
func (e *testEnv) client(token string) *client.Client {
	c := &client.Client{BaseURL: e.srv.URL, Token: e.tok(token)}
	if n, ok := strings.CutPrefix(token, "tok-s"); ok {
		c.SessionID = "t" + n + ".1"
	}
	return c
}

// do sends a raw request; headers are "Key: value" strings.
func (e *testEnv) do(t *testing.T, method, path, token, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
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
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// snapshot is what the station's verbs change, in a line each: tasks
// (state, attempt, reason, history), projects (paused) and sessions
// (state, the last report on the board), so a test sees that a refused
// request changed nothing.
func (e *testEnv) snapshot(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	tasks, err := e.st.Tasks.Tasks(ctx, supervisor.TaskFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tk := range tasks {
		h, err := e.st.Tasks.History(ctx, tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "task %s %s %d %q history %d\n", tk.ID, tk.State, tk.Attempt, tk.Reason, len(h))
	}
	ps, err := e.st.Projects.Projects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		fmt.Fprintf(&b, "project %s paused %v\n", p.Name, p.Paused)
	}
	for _, s := range e.st.Sessions.Sessions() {
		fmt.Fprintf(&b, "session %s %s report %v\n", s.ID, s.State, s.Evidence["board"])
	}
	return b.String()
}
