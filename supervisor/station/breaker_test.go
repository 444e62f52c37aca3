package station

import (
	"slices"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/config"
)

// The breaker trips on the Count-th block within Within, forgets old
// blocks as they leave the window, and counts afresh after a trip or a
// reset.
func TestBreakerCount(t *testing.T) {
	b := config.Breaker{Count: 3, Within: 10 * time.Minute}
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	k := breaker{marks: map[string][]blockMark{}}
	steps := []struct {
		task string
		at   time.Duration
		want []string
	}{
		{"t1", 0, nil},
		{"t2", 2 * time.Minute, nil},
		{"t3", 11 * time.Minute, nil}, // t1 left the window
		{"t4", 11*time.Minute + 30*time.Second, []string{"t2", "t3", "t4"}},
		{"t5", 13 * time.Minute, nil}, // counted afresh after the trip
		{"t6", 14 * time.Minute, nil},
	}
	for _, s := range steps {
		if got := k.count("web", s.task, b, at.Add(s.at)); !slices.Equal(got, s.want) {
			t.Fatalf("block of %s at +%s: trip %v, want %v", s.task, s.at, got, s.want)
		}
	}
	if got := k.count("api", "t9", b, at.Add(14*time.Minute)); got != nil {
		t.Fatalf("another project's block tripped with %v", got)
	}
	k.reset("web")
	if got := k.count("web", "t7", b, at.Add(15*time.Minute)); got != nil {
		t.Fatalf("after a reset the first block tripped with %v", got)
	}
}
