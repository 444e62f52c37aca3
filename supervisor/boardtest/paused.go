package boardtest

import (
	"context"
	"maps"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

func testPaused(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	check := func(want map[string]string) {
		t.Helper()
		got, err := b.Paused(ctx)
		if err != nil {
			t.Fatalf("Paused: %v", err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("Paused = %v, want %v", got, want)
		}
	}
	check(map[string]string{})
	steps := []struct {
		project string
		paused  bool
		reason  string
		want    map[string]string
	}{
		{"web", true, "3 blocks in 10m", map[string]string{"web": "3 blocks in 10m"}},
		{"api", true, "", map[string]string{"web": "3 blocks in 10m", "api": ""}},
		{"web", true, "by hand", map[string]string{"web": "by hand", "api": ""}},
		{"web", false, "", map[string]string{"api": ""}},
		{"web", false, "", map[string]string{"api": ""}}, // resuming a running project is a no-op
		{"api", false, "", map[string]string{}},
	}
	for _, s := range steps {
		if err := b.SetPaused(ctx, s.project, s.paused, s.reason); err != nil {
			t.Fatalf("SetPaused(%s, %v): %v", s.project, s.paused, err)
		}
		check(s.want)
	}
}
