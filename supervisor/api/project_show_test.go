package api_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// GET /v1/projects/{name} answers one project's line of project ls, from
// the real station over a real board: its queue counts the board's todo
// tasks, and a name that is no project is a 404 saying where to look.
func TestProjectShowOverTheRealStation(t *testing.T) {
	_, e := newBoardEnv(t)
	c := e.client(stationToken)
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

// GET /v1/projects/{name}/setup?path= reads a folder typed in Edit
// project in place of the project's: the path reaches the station whole
// (spaces, '?', '&' and all), and one the station refuses is a 400 in its
// words.
func TestProjectSetupOfAFolderTyped(t *testing.T) {
	_, e := newBoardEnv(t)
	c := e.client(stationToken)
	if _, err := c.ProjectSetup(t.Context(), "web", ""); err != nil {
		t.Fatalf("the project's own folder: %v", err)
	}
	if _, err := c.ProjectSetup(t.Context(), "web", t.TempDir()+"/a b?c&path=x"); err != nil {
		t.Fatalf("an absolute folder typed: %v", err)
	}
	_, err := c.ProjectSetup(t.Context(), "web", "src/a b?c&d")
	var ae *apitype.Error
	if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(err.Error(), `folder "src/a b?c&d" is not an absolute path`) {
		t.Fatalf("a relative folder typed: %v", err)
	}
}
