package api_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// GET /v1/projects/{name} answers one project's line of project ls, from
// the real station over a real board: its queue counts the board's todo
// tasks, and a name that is no project is a 404 saying where to look.
func TestProjectShowOverTheRealStation(t *testing.T) {
	st := apitest.Board(t, "web", "api")
	srv := httptest.NewServer(api.NewServer(st, stationToken, nil).Handler())
	t.Cleanup(srv.Close)
	c := &client.Client{BaseURL: srv.URL, Token: stationToken}
	if _, err := c.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "first"}); err != nil {
		t.Fatal(err)
	}
	p, err := c.Project(t.Context(), "web")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "web" || !strings.HasSuffix(p.Path, "web") || p.Queued != 1 || p.Agent != "agent" || p.Paused {
		t.Fatalf("project web: %+v", p)
	}
	_, err = c.Project(t.Context(), "nope")
	var ae *apitype.Error
	if !errors.As(err, &ae) || ae.Status != 404 || !strings.Contains(err.Error(), "project ls") {
		t.Fatalf("project nope: %v", err)
	}
}
