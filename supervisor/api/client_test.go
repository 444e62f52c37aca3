package api_test

import (
	"context"
	"net"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor/api/apitest"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The client's methods reach the routes, decode their answers, and do
// on the station what they say.
func TestClientRoundTrip(t *testing.T) {
	e := newEnv(t)
	c := e.client(stationToken)
	ctx := t.Context()

	tk, err := c.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "third"})
	if err != nil || tk.ID != "t3" {
		t.Fatalf("AddTask = %+v, %v", tk, err)
	}
	list, err := c.Tasks(ctx, supervisor.TaskFilter{Project: "web"})
	if err != nil || len(list) != 3 {
		t.Fatalf("Tasks(web) = %v, %v", list, err)
	}
	d, err := c.Task(ctx, "t1")
	if err != nil || d.Task.ID != "t1" || len(d.History) == 0 {
		t.Fatalf("Task = %+v, %v", d, err)
	}
	e.env.Session(t, "t3")
	if err := c.Block(ctx, "t2.1", "why"); err != nil {
		t.Fatal(err)
	}
	e.env.WaitTask(t, "t2", supervisor.TaskBlocked)
	if tk, err := c.Requeue(ctx, "t2", "try again"); err != nil || tk.State != supervisor.TaskTodo || tk.Attempt != 2 {
		t.Fatalf("Requeue = %+v, %v", tk, err)
	}
	if tk, err := c.Cancel(ctx, "t3"); err != nil || tk.State != supervisor.TaskCancelled {
		t.Fatalf("Cancel = %+v, %v", tk, err)
	}
	if ss, err := c.Sessions(ctx); err != nil || !slices.ContainsFunc(ss, func(s supervisor.SessionInfo) bool { return s.ID == "t1.1" }) {
		t.Fatalf("Sessions = %v, %v; want t1.1 among them", ss, err)
	}
	if s, err := c.Session(ctx, "t1.1"); err != nil || s.PID == 0 || s.TaskID != "t1" {
		t.Fatalf("Session = %+v, %v", s, err)
	}
	for _, err := range []error{c.Send(ctx, "t1.1", "hi"), c.Nudge(ctx, "t1.1"), c.Pause(ctx, "web", "r"), c.Resume(ctx, "web")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The agent read what was sent.
	testwait.Eventually(t, time.Minute, func() bool {
		tr, err := e.st.Sessions.Transcript("t1.1", 0)
		return err == nil && strings.Contains(string(tr.Data), apitest.Got([]byte("hi")))
	}, "the agent to say it read hi")
	if st, err := c.Status(ctx); err != nil || st.Tasks[supervisor.TaskCancelled] != 1 {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if ps, err := c.Projects(ctx); err != nil || len(ps) != 1 || ps[0].Paused {
		t.Fatalf("Projects = %v, %v", ps, err)
	}
	if err := e.client("tok-s1").AgentStatus(ctx, "working"); err != nil {
		t.Fatal(err)
	}
	if err := e.client("tok-s1").AgentBlock(ctx, "need a key"); err != nil {
		t.Fatal(err)
	}
	if tk := e.env.WaitTask(t, "t1", supervisor.TaskBlocked); !strings.Contains(tk.Reason, "need a key") {
		t.Errorf("t1 blocked for %q, want the agent's reason", tk.Reason)
	}
	if tk, err := e.st.Tasks.Task(ctx, "t2"); err != nil || !slices.ContainsFunc(tk.Notes, func(n string) bool { return strings.Contains(n, "try again") }) {
		t.Errorf("t2 = %+v, %v; want the requeue's note among its notes", tk, err)
	}

	_, err = c.Task(ctx, "t9")
	var ae *apitype.Error
	if !asError(err, &ae) || ae.Status != 404 || !strings.Contains(ae.Message, "buildstation task ls") {
		t.Fatalf("Task(t9) err = %#v", err)
	}
}

func TestDialNoStation(t *testing.T) {
	home := t.TempDir()
	_, err := client.Dial(home)
	want := `no station is running for ` + home + `; start one with "buildstation daemon"`
	if err == nil || err.Error() != want {
		t.Fatalf("no file: err = %v, want %s", err, want)
	}
	// A station.json left behind by a station that is gone.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: "http://" + addr}); err != nil {
		t.Fatal(err)
	}
	if _, err := apitype.LoadOrCreateToken(home); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Dial(home); err == nil || err.Error() != want {
		t.Fatalf("stale file: err = %v, want %s", err, want)
	}
}

func TestDial(t *testing.T) {
	home := t.TempDir()
	tok, err := apitype.LoadOrCreateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go api.NewServer(apitest.Areas(apitest.Board(t, "web")), tok, nil).Serve(ctx, ln)
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: "http://" + ln.Addr().String(), PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Status(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv(apitype.EnvURL, "")
	t.Setenv(apitype.EnvToken, "")
	if _, err := client.FromEnv(); err == nil || !strings.HasPrefix(err.Error(), "BUILDSTATION_URL is not set; run this from inside a Build Station session") {
		t.Fatalf("err = %v", err)
	}
	t.Setenv(apitype.EnvURL, "http://127.0.0.1:1")
	if _, err := client.FromEnv(); err == nil || err.Error() != "BUILDSTATION_TOKEN is not set; run this from inside a Build Station session" {
		t.Fatalf("err = %v", err)
	}
	t.Setenv(apitype.EnvToken, "tok")
	t.Setenv(apitype.EnvSessionID, "")
	if _, err := client.FromEnv(); err == nil || err.Error() != "BUILDSTATION_SESSION_ID is not set; run this from inside a Build Station session" {
		t.Fatalf("err = %v", err)
	}
	t.Setenv(apitype.EnvSessionID, "t1.1")
	c, err := client.FromEnv()
	if err != nil || c.Token != "tok" || c.BaseURL != "http://127.0.0.1:1" || c.SessionID != "t1.1" {
		t.Fatalf("FromEnv = %+v, %v", c, err)
	}
}

// countingListener counts the connections the station accepted.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// A command line verb (Dial, then one call) connects once: the connection
// Dial proved the station on carries the call. A call that comes after
// Dial's connection expired dials its own, proven again.
func TestDialedConnectionCarriesTheFirstCall(t *testing.T) {
	home := t.TempDir()
	tok, err := apitype.LoadOrCreateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ln := &countingListener{Listener: inner}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go api.NewServer(apitest.Areas(apitest.Board(t, "web")), tok, nil).Serve(ctx, ln)
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: "http://" + inner.Addr().String(), PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Status(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Tasks(ctx, supervisor.TaskFilter{}); err != nil {
		t.Fatal(err)
	}
	if n := ln.n.Load(); n != 1 {
		t.Errorf("Dial and two calls opened %d connections, want 1", n)
	}

	late, err := client.Dial(home)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond) // past client.spareFor (2 s)
	if _, err := late.Status(ctx); err != nil {
		t.Fatalf("a call after Dial's connection expired: %v", err)
	}
	if n := ln.n.Load(); n != 3 {
		t.Errorf("a late call after Dial: %d connections in all, want 3 (the expired one closed, a new one proven)", n)
	}
}
