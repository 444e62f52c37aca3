package cli

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A hook's report that the station did not take (busy: 503, or its
// connection closed at once under a flood) is tried again briefly, and
// when it still is not taken the hook exits 1 with one line on stderr:
// never 0, which hid lost usage, activity and asks; never 2, which Claude
// Code reads as "block this tool call" (or, for Stop, "keep going").
func TestAgentHookRetriesThenSaysItFailed(t *testing.T) {
	var busyFor atomic.Int32
	calls := agentStation(t, func(n int32, w http.ResponseWriter) {
		if n <= busyFor.Load() {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"the station is busy (64 requests in flight); retry in a second"}`))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	hook := func() (int, string, time.Duration) {
		var out, errb bytes.Buffer
		start := time.Now()
		code := Run(context.Background(), Deps{}, []string{"agent", "hook"}, strings.NewReader(`{"hook_event_name":"PostToolUse"}`), &out, &errb)
		if out.Len() > 0 {
			t.Errorf("stdout %q", out.String())
		}
		return code, errb.String(), time.Since(start)
	}

	busyFor.Store(2)
	if code, stderr, _ := hook(); code != 0 || calls.Load() != 3 {
		t.Errorf("busy twice, then taken: exit %d after %d calls, stderr %q; want 0 after 3", code, calls.Load(), stderr)
	}

	calls.Store(0)
	busyFor.Store(100)
	code, stderr, took := hook()
	if code != 1 || calls.Load() != 3 || !strings.Contains(stderr, "the station did not take this hook's report") ||
		!strings.Contains(stderr, "busy") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("busy throughout: exit %d after %d calls, stderr %q; want 1 after 3 tries, one line", code, calls.Load(), stderr)
	}
	if took > 3*time.Second {
		t.Errorf("the hook held the agent %s", took)
	}
}
