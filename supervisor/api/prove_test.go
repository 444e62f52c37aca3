package api_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/buildstation/buildstation/supervisor/client"
)

// An agent's client has the station prove itself before each call, and the
// real station does.
func TestAgentClientVerifiesTheStation(t *testing.T) {
	e := newEnv(t)
	c := &client.Client{BaseURL: e.srv.URL, Token: e.tok("tok-s1"), SessionID: "t1.1"}
	if err := c.AgentProgress(t.Context(), "step"); err != nil {
		t.Fatal(err)
	}
	// A token of another session cannot pass for t1.1's.
	c = &client.Client{BaseURL: e.srv.URL, Token: e.tok("tok-s2"), SessionID: "t1.1"}
	if err := c.AgentProgress(t.Context(), "step"); err == nil || !strings.Contains(err.Error(), "not this session's station") {
		t.Fatalf("t1.1's proof checked against t2.1's token: %v", err)
	}
}

// A program listening where the station used to (another local user who
// took the freed port) never receives the session token: it cannot prove
// it holds it, whether it answers itself or relays the challenge to the
// real station.
func TestAgentClientRefusesAnImpostor(t *testing.T) {
	testRefusesImpostor(t, "tok-s1", "t1.1")
}

// The same for the CLI's and the tray's client: the station token goes
// only to a program that proves it holds it.
func TestStationClientRefusesAnImpostor(t *testing.T) {
	testRefusesImpostor(t, stationToken, "")
}

func testRefusesImpostor(t *testing.T, token, session string) {
	e := newEnv(t)
	target, _ := url.Parse(e.srv.URL)
	for _, tt := range []struct {
		name  string
		serve func(http.ResponseWriter, *http.Request)
	}{
		{"answers anything", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"proof":"00"}`))
		}},
		{"relays to the station", (&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target) // Host too: the station only answers its own
		}}).ServeHTTP},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tokens atomic.Int32
			thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") != "" {
					tokens.Add(1)
				}
				tt.serve(w, r)
			}))
			defer thief.Close()
			c := &client.Client{BaseURL: thief.URL, Token: e.tok(token), SessionID: session}
			err := c.AgentComplete(t.Context(), "done")
			if session == "" {
				_, err = c.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"})
			}
			if err == nil || !strings.Contains(err.Error(), "no token was sent") && !strings.Contains(err.Error(), "not this session's station") {
				t.Errorf("a call through an impostor: %v, want a refusal", err)
			}
			if n := tokens.Load(); n != 0 {
				t.Errorf("the impostor received the token %d times", n)
			}
		})
	}
	// Nothing reached the station: t1 still works, no task was added.
	if tasks, err := e.st.Tasks.Tasks(t.Context(), supervisor.TaskFilter{}); err != nil || len(tasks) != 2 || tasks[0].State != supervisor.TaskWorking {
		t.Errorf("a call reached the station through the impostor: tasks %+v, %v", tasks, err)
	}
}
