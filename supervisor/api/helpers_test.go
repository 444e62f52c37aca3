package api_test

import (
	"context"
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

var _ api.Station = (*apitest.Station)(nil)

const stationToken = "station-secret"

type testEnv struct {
	fake *apitest.Station
	srv  *httptest.Server
}

// newEnv serves a fake with project "web", task t1 (working) and sessions
// s1 (token tok-s1, task t1) and s2 (token tok-s2, task t2).
func newEnv(t *testing.T) *testEnv {
	t.Helper()
	fake := newFake(t)
	srv := httptest.NewServer(api.NewServer(fake, stationToken, nil).Handler())
	t.Cleanup(srv.Close)
	return &testEnv{fake: fake, srv: srv}
}

// newBoardEnv serves the real station over a real SQLite board
// (apitest.Board) with project "web" and no task: what a new verb's tests
// use, since the fake is frozen.
func newBoardEnv(t *testing.T) (*station.Station, *testEnv) {
	t.Helper()
	st := apitest.Board(t, "web")
	srv := httptest.NewServer(api.NewServer(st, stationToken, nil).Handler())
	t.Cleanup(srv.Close)
	return st, &testEnv{srv: srv}
}

// newFake is newEnv's station: session s2 also has a worktree and branch.
func newFake(t *testing.T) *apitest.Station {
	t.Helper()
	fake := apitest.New()
	fake.PutProject(supervisor.ProjectInfo{Name: "web", Path: "/src/web", Concurrency: 1})
	for _, title := range []string{"first", "second"} {
		if _, err := fake.AddTask(context.Background(), supervisor.NewTask{Project: "web", Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	fake.SetTaskState("t1", supervisor.TaskWorking, "")
	fake.AddSession(supervisor.SessionInfo{ID: "s1", TaskID: "t1", State: supervisor.SessWorking, PID: 101}, "tok-s1")
	fake.AddSession(supervisor.SessionInfo{ID: "s2", TaskID: "t2", Kind: "work", State: supervisor.SessWorking, PID: 102,
		Dir: "/src/web/.buildstation/worktrees/t2", Branch: "bs/t2"}, "tok-s2")
	return fake
}

// client calls e with token; a session token (tok-sN) makes an agent's
// client, which has the station prove it holds that session's token.
func (e *testEnv) client(token string) *client.Client {
	c := &client.Client{BaseURL: e.srv.URL, Token: token}
	if id, ok := strings.CutPrefix(token, "tok-"); ok {
		c.SessionID = id
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
		req.Header.Set("Authorization", "Bearer "+token)
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
