package api_test

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The client's methods reach the routes and decode their answers.
func TestClientRoundTrip(t *testing.T) {
	e := newEnv(t)
	c := e.client(stationToken)
	ctx := t.Context()

	tk, err := c.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "third"})
	if err != nil || tk.ID != "t3" {
		t.Fatalf("AddTask = %+v, %v", tk, err)
	}
	list, err := c.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskTodo})
	if err != nil || len(list) != 2 {
		t.Fatalf("Tasks(todo) = %v, %v", list, err)
	}
	d, err := c.Task(ctx, "t1")
	if err != nil || d.Task.ID != "t1" || len(d.History) == 0 {
		t.Fatalf("Task = %+v, %v", d, err)
	}
	e.fake.SetTaskState("t2", supervisor.TaskBlocked, "wedged")
	if tk, err := c.Requeue(ctx, "t2", "try again"); err != nil || tk.State != supervisor.TaskTodo || tk.Attempt != 2 {
		t.Fatalf("Requeue = %+v, %v", tk, err)
	}
	if tk, err := c.Cancel(ctx, "t3"); err != nil || tk.State != supervisor.TaskCancelled {
		t.Fatalf("Cancel = %+v, %v", tk, err)
	}
	if ss, err := c.Sessions(ctx); err != nil || len(ss) != 2 {
		t.Fatalf("Sessions = %v, %v", ss, err)
	}
	if s, err := c.Session(ctx, "s2"); err != nil || s.PID != 102 {
		t.Fatalf("Session = %+v, %v", s, err)
	}
	for _, err := range []error{c.Send(ctx, "s1", "hi"), c.Nudge(ctx, "s1"), c.Block(ctx, "s1", "why"), c.Pause(ctx, "web", "r"), c.Resume(ctx, "web")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if st, err := c.Status(ctx); err != nil || st.Working != 2 {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if ps, err := c.Projects(ctx); err != nil || len(ps) != 1 {
		t.Fatalf("Projects = %v, %v", ps, err)
	}
	if err := e.client("tok-s1").AgentStatus(ctx, "working"); err != nil {
		t.Fatal(err)
	}
	if err := e.client("tok-s1").AgentBlock(ctx, "need a key"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, call := range e.fake.Calls() {
		got = append(got, call.Method+"("+call.SessionID+","+call.Arg+")")
	}
	want := "AddTask(,first) AddTask(,second) AddTask(,third) Requeue(,try again) Cancel(,t3) Send(s1,hi) Nudge(s1,) Block(s1,why) PauseProject(,web: r) ResumeProject(,web) AgentStatus(s1,working) AgentBlock(s1,need a key)"
	if strings.Join(got, " ") != want {
		t.Errorf("calls:\n got %s\nwant %s", strings.Join(got, " "), want)
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
	e := newEnv(t)
	go api.NewServer(e.fake, tok, nil).Serve(ctx, ln)
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
