package cli_test

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// On a shared board session ls says which station runs each session; on
// a station's own board the column is not there. The sessions are real,
// on real stations: here's own board, then a shared board (PostgreSQL)
// where station buildbox runs the task.
func TestSessionLsNamesStations(t *testing.T) {
	own := startAgents(t)
	own.addTask(t, "one")
	own.env.Session(t, "t1")
	if out := own.ok(t, "session", "ls"); strings.Contains(out, "STATION") || !strings.Contains(out, "t1.1") {
		t.Fatalf("own board: a STATION column, or no session:\n%s", out)
	}

	board := pgtest.NewDB(t, 4)
	buildbox := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true, Board: board, Station: "buildbox"})
	// here is not running: it claims nothing, buildbox runs what is added.
	here := startShared(t, board, "here", false)
	here.addTask(t, "two")
	buildbox.Session(t, "t1")
	out := here.ok(t, "session", "ls")
	if !strings.Contains(out, "STATION") || !strings.Contains(out, "buildbox") {
		t.Fatalf("session ls lacks the station:\n%s", out)
	}
	if js := here.ok(t, "session", "ls", "--json"); !strings.Contains(js, `"station": "buildbox"`) || strings.Count(js, `"station"`) != 1 {
		t.Fatalf("session ls --json: station not named once:\n%s", js)
	}
}

// startShared serves a real station named name on the shared board at
// url, with project "web", running (claiming tasks) or not.
func startShared(t *testing.T, url, name string, running bool) *station {
	t.Helper()
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: running, Board: url, Station: name})
	return &station{home: serve(t, apitest.Areas(env.Station)), board: env.Board, env: env}
}
