package store

import (
	"context"
	"testing"
	"time"
)

func TestGateResults(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, _, ok, err := s.GateResult(ctx, "web", "abc"); err != nil || ok {
		t.Fatalf("GateResult before any run: ok = %v, err = %v", ok, err)
	}
	steps := []struct {
		project, sha string
		passed       bool
		tail         string
	}{
		{"web", "abc", false, "FAIL TestLogin"},
		{"api", "abc", true, "ok"}, // same commit, another project's gate
		{"web", "abc", true, "ok after rerun"},
	}
	for _, st := range steps {
		if err := s.SaveGateResult(ctx, st.project, st.sha, st.passed, st.tail); err != nil {
			t.Fatal(err)
		}
		passed, tail, ok, err := s.GateResult(ctx, st.project, st.sha)
		if err != nil || !ok || passed != st.passed || tail != st.tail {
			t.Errorf("GateResult(%s, %s) = %v, %q, %v, %v; want %v, %q", st.project, st.sha, passed, tail, ok, err, st.passed, st.tail)
		}
	}
	if passed, _, _, _ := s.GateResult(ctx, "api", "abc"); !passed {
		t.Error("web's rerun overwrote api's verdict")
	}
	if err := s.SaveGateResult(ctx, "", "abc", true, ""); err == nil {
		t.Error("SaveGateResult with no project succeeded")
	}
}

// A verdict says when it was reached: task show names the time.
func TestGateCheckedAt(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, ok, err := s.GateCheckedAt(ctx, "web", "abc"); ok || err != nil {
		t.Fatalf("before any run: ok %v, err %v", ok, err)
	}
	if err := s.SaveGateResult(ctx, "web", "abc", true, "ok"); err != nil {
		t.Fatal(err)
	}
	at, ok, err := s.GateCheckedAt(ctx, "web", "abc")
	if err != nil || !ok || at.IsZero() || at.Location() != time.UTC {
		t.Fatalf("GateCheckedAt = %v, %v, %v; want a UTC time", at, ok, err)
	}
}
