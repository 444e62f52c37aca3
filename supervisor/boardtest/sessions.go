package boardtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func testSessions(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	t1 := add(t, b, "p", "one")
	t2 := add(t, b, "p", "two")
	// Not UTC on the way in: the board hands back the same instant in UTC.
	est := time.FixedZone("EST", -5*3600)
	base := ms(time.Now()).In(est)

	s1 := supervisor.SessionRecord{ID: "s1", TaskID: t1.ID, Kind: "work", PID: 101, State: "starting", StartedAt: base}
	s2 := supervisor.SessionRecord{ID: "s2", TaskID: t2.ID, Kind: "review", PID: 102, State: "reviewing", StartedAt: base.Add(time.Second),
		Backend: "tmux", Handle: "@7", Token: "secret", LastOutputAt: base.Add(2 * time.Second)}
	for _, s := range []supervisor.SessionRecord{s1, s2} {
		if err := b.SaveSession(ctx, s); err != nil {
			t.Fatalf("SaveSession(%s): %v", s.ID, err)
		}
	}
	s1.StartedAt, s2.StartedAt = s1.StartedAt.UTC(), s2.StartedAt.UTC()
	s2.LastOutputAt = s2.LastOutputAt.UTC()
	checkSessions(t, b, false, s1, s2)
	checkSessions(t, b, true, s1, s2)

	// Saving again updates in place; ending takes it out of the live list.
	s1.State, s1.PID = "working", 201
	s1.EndedAt = base.Add(time.Minute).UTC()
	if err := b.SaveSession(ctx, s1); err != nil {
		t.Fatalf("SaveSession(s1 ended): %v", err)
	}
	checkSessions(t, b, false, s1, s2)
	checkSessions(t, b, true, s2)
}

func checkSessions(t *testing.T, b supervisor.Board, liveOnly bool, want ...supervisor.SessionRecord) {
	t.Helper()
	got, err := b.Sessions(context.Background(), liveOnly)
	if err != nil {
		t.Fatalf("Sessions(%v): %v", liveOnly, err)
	}
	if len(got) != len(want) {
		t.Fatalf("Sessions(%v) = %+v, want %+v", liveOnly, got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		okTimes := sameTime(g.StartedAt, w.StartedAt) && g.EndedAt.Equal(w.EndedAt) &&
			(g.EndedAt.IsZero() || g.EndedAt.Location() == time.UTC)
		g.StartedAt, g.EndedAt, w.StartedAt, w.EndedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if g.Token != "" && g.Token == supervisor.HashToken(w.Token) {
			g.Token = w.Token // a shared board keeps only the token's hash
		}
		if !okTimes || g != w {
			t.Errorf("Sessions(%v)[%d] = %+v, want %+v", liveOnly, i, got[i], want[i])
		}
	}
}

func testSessionUnknownTask(t *testing.T, b supervisor.Board) {
	err := b.SaveSession(context.Background(), supervisor.SessionRecord{ID: "s1", TaskID: "t42", Kind: "work", State: "starting", StartedAt: ms(time.Now())})
	if !errors.Is(err, supervisor.ErrNotFound) {
		t.Errorf("SaveSession for an unknown task err = %v, want ErrNotFound", err)
	}
}
