package cli

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An agent's report is retried while the station answers 503 (its shared
// board away), saying so on stderr, and lands when it can; a refusal (409:
// the lease is lost) is not retried.
func TestAgentReportRetriesWhileBoardAway(t *testing.T) {
	refuse := atomic.Bool{}
	calls := agentStation(t, func(n int32, w http.ResponseWriter) {
		switch {
		case refuse.Load():
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"error":"this station no longer holds task t1 (its lease was lost); stop working on it"}`))
		case n <= 2:
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"the shared board did not answer"}`))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	old := agentDeadline
	agentDeadline = 30 * time.Second
	defer func() { agentDeadline = old }()

	var out, errb bytes.Buffer
	code := Run(context.Background(), Deps{}, []string{"agent", "complete", "--summary", "done"}, strings.NewReader(""), &out, &errb)
	if code != 0 || calls.Load() != 3 {
		t.Fatalf("exit %d after %d calls, stderr %q; want 0 after 3", code, calls.Load(), errb.String())
	}
	if got := strings.Count(errb.String(), "retrying in"); got != 2 || !strings.Contains(errb.String(), "the shared board did not answer") {
		t.Fatalf("stderr %q: want two lines saying why and when it retries", errb.String())
	}

	refuse.Store(true)
	calls.Store(0)
	errb.Reset()
	code = Run(context.Background(), Deps{}, []string{"agent", "complete", "--summary", "done"}, strings.NewReader(""), &out, &errb)
	if code == 0 || calls.Load() != 1 || !strings.Contains(errb.String(), "lease was lost") {
		t.Fatalf("fenced agent: exit %d after %d calls, stderr %q; want a failure at once that tells the truth", code, calls.Load(), errb.String())
	}
}

// agentStation serves a session's calls as a station would that answers
// each with answer (n counts the calls from 1), proving itself with the
// token "tok", and points the session's environment at it. The count it
// returns may be reset between runs.
func agentStation(t *testing.T, answer func(n int32, w http.ResponseWriter)) *atomic.Int32 {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/agent/prove" {
			proveAs(w, r, "tok")
			return
		}
		n := calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		answer(n, w)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("BUILDSTATION_URL", srv.URL)
	t.Setenv("BUILDSTATION_TOKEN", "tok")
	t.Setenv("BUILDSTATION_SESSION_ID", "t1.1")
	return &calls
}

// proveAs answers the agent's proof request as a station holding token
// would (supervisor/api/prove.go).
func proveAs(w http.ResponseWriter, r *http.Request, token string) {
	var req struct{ Nonce string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("buildstation station proof v1\n" + strings.ToLower(r.Host) + "\n" + req.Nonce))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"proof": hex.EncodeToString(m.Sum(nil))})
}
