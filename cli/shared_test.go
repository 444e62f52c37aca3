package cli_test

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// On a shared board session ls says which station runs each session; on
// a station's own board the column is not there.
func TestSessionLsNamesStations(t *testing.T) {
	s := startStation(t)
	s.fake.AddSession(supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: supervisor.SessWorking, PID: 7}, "tok")
	if out := s.ok(t, "session", "ls"); strings.Contains(out, "STATION") {
		t.Fatalf("own board, yet a STATION column:\n%s", out)
	}
	s.fake.AddSession(supervisor.SessionInfo{ID: "t2.1", TaskID: "t2", State: supervisor.SessWorking, PID: 8, Station: "buildbox"}, "tok2")
	out := s.ok(t, "session", "ls")
	if !strings.Contains(out, "STATION") || !strings.Contains(out, "buildbox") {
		t.Fatalf("session ls lacks the station:\n%s", out)
	}
	if js := s.ok(t, "session", "ls", "--json"); !strings.Contains(js, `"station": "buildbox"`) || strings.Count(js, `"station"`) != 1 {
		t.Fatalf("session ls --json: station not named once:\n%s", js)
	}
}
