package client

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// These tests hold the client's own HTTP/1.1 (wire.go) against Go's
// net/http server on loopback, the server the station runs: a station in
// small, which proves itself as the real one does and fails the test if a
// token ever arrives on a connection it has not proven itself on.

const wireToken = "wire-test-token"

// wireStation is the small station: its counts, and its server.
type wireStation struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	conns  int // connections opened
	proofs int // challenges answered
}

type connKey struct{}

// connState is what the small station knows of one connection.
type connState struct{ proven bool }

func newWireStation(t *testing.T, routes map[string]http.HandlerFunc) *wireStation {
	s := &wireStation{t: t}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+apitype.ProvePath, func(w http.ResponseWriter, r *http.Request) {
		var req apitype.ProveRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if r.Header.Get("Authorization") != "" {
			t.Errorf("a token came with the challenge")
		}
		m := hmac.New(sha256.New, []byte(wireToken))
		m.Write(apitype.ProofMessage(r.Host, req.Nonce))
		r.Context().Value(connKey{}).(*connState).proven = true
		s.mu.Lock()
		s.proofs++
		s.mu.Unlock()
		json.NewEncoder(w).Encode(apitype.ProveResponse{Proof: hex.EncodeToString(m.Sum(nil))})
	})
	for route, h := range routes {
		mux.HandleFunc(route, func(w http.ResponseWriter, r *http.Request) {
			if !r.Context().Value(connKey{}).(*connState).proven {
				t.Errorf("%s %s: the token came over a connection the station had not proven itself on", r.Method, r.URL)
			}
			if r.Header.Get("Authorization") != "Bearer "+wireToken {
				http.Error(w, `{"error":"no token"}`, http.StatusUnauthorized)
				return
			}
			h(w, r)
		})
	}
	s.srv = httptest.NewUnstartedServer(mux)
	s.srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		s.mu.Lock()
		s.conns++
		s.mu.Unlock()
		return context.WithValue(ctx, connKey{}, &connState{})
	}
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

// counts returns the connections opened and the proofs made so far.
func (s *wireStation) counts() (conns, proofs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns, s.proofs
}

func (s *wireStation) client() *Client {
	return &Client{BaseURL: s.srv.URL, Token: wireToken}
}

// statusRoute answers a status as the station does: small JSON, which
// net/http sends with a Content-Length.
func statusRoute(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(supervisor.Status{Working: 7})
}

// Calls one after another go over one connection, proven once; the
// answer's length frames it.
func TestWireKeepsTheConnectionAlive(t *testing.T) {
	s := newWireStation(t, map[string]http.HandlerFunc{"GET /v1/status": statusRoute})
	c := s.client()
	for i := range 3 {
		st, err := c.Status(t.Context())
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if st.Working != 7 {
			t.Fatalf("call %d read %+v", i+1, st)
		}
	}
	if conns, proofs := s.counts(); conns != 1 || proofs != 1 {
		t.Errorf("3 calls opened %d connections and proved %d; want 1 and 1", conns, proofs)
	}
}

// A body the server sends in chunks (a large answer, or one it flushes
// as it goes) is read whole, and the connection serves the next call.
func TestWireReadsAChunkedBody(t *testing.T) {
	want := make([]supervisor.Task, 3000) // past net/http's buffer: chunked
	for i := range want {
		want[i] = supervisor.Task{ID: fmt.Sprintf("t%d", i), Title: strings.Repeat("x", i%50)}
	}
	s := newWireStation(t, map[string]http.HandlerFunc{
		"GET /v1/tasks": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(apitype.HeaderNextAfter, "")
			for i, task := range want {
				if i == 0 {
					io.WriteString(w, "[")
				} else {
					io.WriteString(w, ",")
				}
				json.NewEncoder(w).Encode(task)
				if i%1000 == 0 {
					w.(http.Flusher).Flush()
				}
			}
			io.WriteString(w, "]\n")
		},
		"GET /v1/status": statusRoute,
	})
	c := s.client()
	got, next, err := c.TasksPage(t.Context(), supervisor.TaskFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || got[2999].ID != "t2999" || got[49].Title != want[49].Title || next != "" {
		t.Fatalf("read %d tasks (last %+v); want %d", len(got), got[len(got)-1], len(want))
	}
	if _, err := c.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	if conns, _ := s.counts(); conns != 1 {
		t.Errorf("a chunked answer and a call after it opened %d connections; want 1", conns)
	}
}

// A connection the station closed between two calls (a restart, its idle
// limit) is not used again: the next call dials a new one and has it
// proven before its token goes out.
func TestWireRedialsAConnectionTheStationClosed(t *testing.T) {
	s := newWireStation(t, map[string]http.HandlerFunc{
		"GET /v1/status":        statusRoute,
		"POST /v1/station/stop": statusRoute,
	})
	c := s.client()
	if _, err := c.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	// At once: the call may find the connection before its watcher sees
	// it closed.
	s.srv.CloseClientConnections()
	if _, err := c.Status(t.Context()); err != nil {
		t.Fatalf("the call after the station closed the connection: %v", err)
	}
	if conns, proofs := s.counts(); conns != 2 || proofs != 2 {
		t.Errorf("%d connections and %d proofs; want 2 and 2", conns, proofs)
	}
	// After a while: the watcher has taken it out of the pool, so even a
	// call that must not be made twice (a POST) goes out on a new one.
	s.srv.CloseClientConnections()
	testwait.Eventually(t, 10*time.Second, func() bool {
		c.idle.mu.Lock()
		defer c.idle.mu.Unlock()
		return len(c.idle.idle[s.srv.Listener.Addr().String()]) == 0
	}, "the closed connection to leave the pool")
	if _, err := c.RequestStop(t.Context()); err != nil {
		t.Fatalf("a POST after the station closed the idle connection: %v", err)
	}
	if conns, proofs := s.counts(); conns != 3 || proofs != 3 {
		t.Errorf("%d connections and %d proofs; want 3 and 3", conns, proofs)
	}
}

// Cancelling a stream's context ends it while the station still holds it
// open: the event channel closes and the station sees the client gone.
func TestWireCancelEndsAStream(t *testing.T) {
	gone := make(chan struct{})
	s := newWireStation(t, map[string]http.HandlerFunc{
		"GET /v1/events": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"kind\":%q}\n\n", supervisor.EventTask)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			close(gone)
		},
	})
	ctx, cancel := context.WithCancel(t.Context())
	events, err := s.client().Events(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-events; e.Kind != supervisor.EventTask {
		t.Fatalf("first event %+v", e)
	}
	cancel()
	select {
	case _, open := <-events:
		if open {
			t.Fatal("an event after the cancel")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream went on 10s after its context was cancelled")
	}
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the station still holds the stream 10s after the cancel")
	}
}

// An ordinary call has its context's deadline: one the station does not
// answer ends with the context's error, and its connection is not kept.
func TestWireDeadlineEndsACall(t *testing.T) {
	release := make(chan struct{})
	s := newWireStation(t, map[string]http.HandlerFunc{
		"GET /v1/status": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	})
	defer close(release)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.client().Status(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v; want the deadline", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the call took %s with a 200ms deadline", took)
	}
}

// A 101 hands over the connection: what the station sent right after
// the answer's head is read first, then the live connection, both ways.
func TestWireUpgradeHandsOverTheConnection(t *testing.T) {
	s := newWireStation(t, map[string]http.HandlerFunc{
		"GET /v1/echo": func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Upgrade") != "echo" {
				http.Error(w, `{"error":"not an upgrade"}`, http.StatusBadRequest)
				return
			}
			conn, brw, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			// The head and the first bytes in one write: they arrive
			// together, in the client's read buffer.
			brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nhello ")
			brw.Flush()
			line, _ := brw.ReadString('\n')
			brw.WriteString("echo " + line)
			brw.Flush()
		},
	})
	c := s.client()
	req, _ := c.newRequest("GET", "/v1/echo", nil)
	req.header = append(req.header, [2]string{"Connection", "Upgrade"}, [2]string{"Upgrade", "echo"})
	resp, err := c.send(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 101 {
		t.Fatalf("status %s", resp.Status)
	}
	rw := resp.Body.(io.ReadWriter)
	if _, err := io.WriteString(rw, "ping\n"); err != nil {
		t.Fatal(err)
	}
	got, err := bufio.NewReader(rw).ReadString('\n')
	if err != nil || got != "hello echo ping\n" {
		t.Fatalf("read %q, %v; want %q", got, err, "hello echo ping\n")
	}
}
