package pgstore

import (
	"context"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Every station sees every station's live sessions: A records its session
// and its changes of state, B lists it and hears of each change; a session
// whose station lost its lease drops out, ended, when the lease is reaped.
func TestOtherStationsSessions(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url := newDB(t)
	a, b := openStore(t, url, "A"), openStore(t, url, "B")
	ch, err := b.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	task := addTask(t, a, "web", "one")
	next(t, ch) // added
	claimLeased(t, a, "web", 1, time.Minute)
	next(t, ch) // claimed
	started := time.Now().UTC().Truncate(time.Millisecond)
	rec := supervisor.SessionRecord{ID: task.ID + ".1", TaskID: task.ID, Kind: "work", PID: 4242, State: "starting", StartedAt: started}
	if err := a.SaveSession(ctx, rec); err != nil {
		t.Fatal(err)
	}
	c := next(t, ch)
	if c.Session == nil || c.Session.ID != rec.ID || c.Session.Station != "A" || c.Session.Project != "web" || c.Session.State != supervisor.SessStarting || c.Session.PID != 4242 {
		t.Fatalf("SaveSession's change = %+v (session %+v)", c, c.Session)
	}

	if err := a.SetSessionState(ctx, rec.ID, "nudged"); err != nil {
		t.Fatal(err)
	}
	if c := next(t, ch); c.Session == nil || c.Session.State != supervisor.SessNudged || c.Station != "A" || c.TaskID != task.ID {
		t.Fatalf("SetSessionState's change = %+v (session %+v)", c, c.Session)
	}
	list, err := b.OtherSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := supervisor.SessionInfo{ID: rec.ID, TaskID: task.ID, Project: "web", Kind: "work", State: supervisor.SessNudged, PID: 4242, StartedAt: started, Station: "A"}
	if len(list) != 1 || list[0].ID != want.ID || list[0].State != want.State || list[0].Station != "A" || list[0].Project != "web" || !list[0].StartedAt.Equal(started) || list[0].PID != 4242 {
		t.Fatalf("B's OtherSessions = %+v, want %+v", list, want)
	}
	if own, err := a.OtherSessions(ctx); err != nil || len(own) != 0 {
		t.Fatalf("A's OtherSessions = %+v, %v; want none (its own are not others')", own, err)
	}
	// B cannot write A's sessions: a state for an id B never recorded is
	// nothing, and announces nothing.
	if err := b.SetSessionState(ctx, rec.ID, "idle"); err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, a, "SELECT count(*) FROM sessions WHERE state = 'idle'"); got != 0 {
		t.Fatalf("B changed A's session: %d idle", got)
	}

	// A dies: its lease runs out and B reaps it.
	if _, err := a.pool.Exec(ctx, "UPDATE leases SET expires_at = clock_timestamp() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	if list, err := b.OtherSessions(ctx); err != nil || len(list) != 0 {
		t.Fatalf("OtherSessions with A's lease expired = %+v, %v; want none", list, err)
	}
	if _, err := b.Reap(ctx, 0); err != nil {
		t.Fatal(err)
	}
	var ended bool
	for !ended {
		c := next(t, ch)
		if c.Session != nil {
			if c.Session.ID != rec.ID || c.Session.State != supervisor.SessEnded || c.Station != "A" {
				t.Fatalf("reaped session's change = %+v (session %+v)", c, c.Session)
			}
			ended = true
		}
	}
	if n := queryInt(t, a, "SELECT count(*) FROM sessions WHERE ended_at IS NULL"); n != 0 {
		t.Fatalf("%d sessions still live after their station's lease was reaped", n)
	}
	// A state written late, after the end, changes nothing.
	if err := a.SetSessionState(ctx, rec.ID, "working"); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM sessions WHERE state = 'lost'"); n != 1 {
		t.Fatalf("a late state overwrote the ended record")
	}
}

// Migrate and Inspect act as no station: the tool is not listed among the
// stations, and Inspect changes nothing.
func TestMigrateAndInspect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	if v, st, err := Inspect(ctx, url, time.Minute); err != nil || v != 0 || len(st) != 0 {
		t.Fatalf("Inspect of an empty database = %d, %+v, %v", v, st, err)
	}
	v, err := Migrate(ctx, url)
	if err != nil || v != len(migrations) {
		t.Fatalf("Migrate = %d, %v; want %d", v, err, len(migrations))
	}
	a := openStore(t, url, "A")
	openStore(t, url, "B")
	task := addTask(t, a, "web", "one")
	claimLeased(t, a, "web", 1, time.Minute)
	v, stations, err := Inspect(ctx, url, time.Minute)
	if err != nil || v != len(migrations) {
		t.Fatalf("Inspect = %d, %v", v, err)
	}
	if len(stations) != 2 || stations[0].Name != "A" || stations[1].Name != "B" {
		t.Fatalf("stations = %+v, want A and B", stations)
	}
	l := stations[0].Leases
	if len(l) != 1 || l[0].TaskID != task.ID || l[0].Project != "web" || l[0].ExpiresIn <= 50*time.Second || l[0].ExpiresIn > time.Minute {
		t.Fatalf("A's leases = %+v", l)
	}
	if len(stations[1].Leases) != 0 {
		t.Fatalf("B's leases = %+v", stations[1].Leases)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM stations"); n != 2 {
		t.Fatalf("%d stations recorded; Migrate or Inspect recorded one", n)
	}
	// A station not seen within the lease is not live.
	if _, err := a.pool.Exec(ctx, "UPDATE stations SET last_seen = clock_timestamp() - interval '2 minutes' WHERE name = 'B'"); err != nil {
		t.Fatal(err)
	}
	if _, stations, _ := Inspect(ctx, url, time.Minute); len(stations) != 1 || stations[0].Name != "A" {
		t.Fatalf("live stations = %+v, want A alone", stations)
	}
}
