package boardcmd

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/wiring/boardopen"
	"github.com/buildstation/buildstation/supervisor/pgstore"
)

// board status --json is the contract: what the command line prints of a
// board must be what the board reported, field for field, so a field
// added on the board's side shows here until the command line has it too.
func TestReportKeepsEveryField(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for _, r := range []boardopen.Report{
		{Kind: "sqlite", Where: "/home/station.db", Version: 7, Integrity: "ok"},
		{Kind: "postgres", Where: "postgres://u@db/board", Version: 5, Stations: []pgstore.StationStatus{}},
		{Kind: "postgres", Where: "postgres://u@db/board", Version: 5, Stations: []pgstore.StationStatus{
			{Name: "buildbox", LastSeen: at, SeenAgo: time.Second, Leases: []pgstore.LeaseStatus{
				{TaskID: "t3", Project: "web", ExpiresAt: at.Add(time.Minute), ExpiresIn: time.Minute},
			}},
			{Name: "laptop", LastSeen: at, Leases: []pgstore.LeaseStatus{}},
		}},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(report(r))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("board status --json:\n got %s\nwant %s", got, want)
		}
		// The ages the table prints are not in the JSON: carried too.
		for i, s := range report(r).Stations {
			if s.SeenAgo != r.Stations[i].SeenAgo || len(s.Leases) > 0 && s.Leases[0].ExpiresIn != r.Stations[i].Leases[0].ExpiresIn {
				t.Errorf("station %s: ages %v / %+v, want %v / %+v", s.Name, s.SeenAgo, s.Leases, r.Stations[i].SeenAgo, r.Stations[i].Leases)
			}
		}
	}
}
