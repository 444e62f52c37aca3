package pgstore

import (
	"context"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardtest"
)

func TestBoard(t *testing.T) {
	t.Parallel()
	pgtest.Admin(t) // skip here rather than in every subtest
	boardtest.Run(t, func(t *testing.T) supervisor.Board { return openStore(t, newDB(t), "station") })
}

func TestGateResult(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t, newDB(t), "a")
	if _, _, ok, err := s.GateResult(ctx, "web", "abc"); ok || err != nil {
		t.Fatalf("GateResult before any = ok %v, err %v", ok, err)
	}
	for _, v := range []struct {
		passed bool
		tail   string
	}{{false, "FAIL: TestX"}, {true, "ok"}} {
		if err := s.SaveGateResult(ctx, "web", "abc", v.passed, v.tail); err != nil {
			t.Fatal(err)
		}
		// Another station sees the verdict: gates are not rerun per machine.
		other := openStore(t, s.pool.Config().ConnString(), "b")
		passed, tail, ok, err := other.GateResult(ctx, "web", "abc")
		if err != nil || !ok || passed != v.passed || tail != v.tail {
			t.Errorf("GateResult = %v, %q, %v, %v; want %v, %q", passed, tail, ok, err, v.passed, v.tail)
		}
	}
	if _, _, ok, _ := s.GateResult(ctx, "api", "abc"); ok {
		t.Error("a verdict of project web answered for project api")
	}
	if err := s.SaveGateResult(ctx, "", "abc", true, ""); err == nil {
		t.Error("SaveGateResult with no project succeeded")
	}
}

// Two stations may both name a session "s1"; each lists only its own, so a
// restarting station never mourns another's live sessions.
func TestSessionsPerStation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "a"), openStore(t, url, "b")
	task, err := a.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "one"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{a, b} {
		r := supervisor.SessionRecord{ID: "s1", TaskID: task.ID, Kind: "work", PID: 7, State: "working " + s.Station(), StartedAt: time.Now()}
		if err := s.SaveSession(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*Store{a, b} {
		got, err := s.Sessions(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].State != "working "+s.Station() {
			t.Errorf("station %s Sessions = %+v, want its own s1 only", s.Station(), got)
		}
	}
}
