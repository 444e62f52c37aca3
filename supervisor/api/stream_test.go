package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// serve runs a real Server on a loopback listener, as the station does.
func serve(t testing.TB, a api.Areas) *client.Client {
	t.Helper()
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.NewServer(a, stationToken, nil).Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &client.Client{BaseURL: "http://" + ln.Addr().String(), Token: stationToken}
}

// readN reads exactly len(want) bytes and compares.
func readN(t *testing.T, r io.Reader, want string) {
	t.Helper()
	got := make([]byte, len(want))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatalf("read %q: %v", want, err)
	}
	if string(got) != want {
		t.Fatalf("read %q, want %q", got, want)
	}
}

func recv[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived in 5s")
		panic("unreachable")
	}
}

// screen is what a console shows so far: a goroutine copies r into it.
func screen(r io.Reader) *testwait.Buffer {
	var b testwait.Buffer
	go io.Copy(&b, r)
	return &b
}

// shows waits for the console to show want.
func shows(t *testing.T, b *testwait.Buffer, want string) {
	t.Helper()
	testwait.Eventually(t, time.Minute, func() error {
		if !strings.Contains(b.String(), want) {
			return fmt.Errorf("the console shows %q", b.String())
		}
		return nil
	}, fmt.Sprintf("%q on the console", want))
}

// A console on a real session (its agent this test binary): the screen
// so far, then live output; what the viewer types and its size reach the
// agent whole; the session's end ends the stream.
func TestAttachRoundTrip(t *testing.T) {
	e := newStation(t)
	c := serve(t, apitest.Areas(e.st))

	a, err := c.Attach(t.Context(), "t1.1")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	out := screen(a)
	shows(t, out, "ready") // the replay: said before the viewer came

	if _, err := a.Write([]byte("ls\r")); err != nil {
		t.Fatal(err)
	}
	shows(t, out, apitest.Got([]byte("ls")))
	if err := a.Resize(97, 31); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write([]byte("size\r")); err != nil {
		t.Fatal(err)
	}
	shows(t, out, "size 97x31")
	// A write larger than one frame arrives whole, in order.
	big := bytes.Repeat([]byte("abcdefgh"), 10000)
	if _, err := a.Write(append(big, '\r')); err != nil {
		t.Fatal(err)
	}
	shows(t, out, apitest.Got(big))

	// The session ends: the viewer reads EOF.
	if _, err := a.Write([]byte("exit\r")); err != nil {
		t.Fatal(err)
	}
	e.env.Ended(t, "t1.1")
	if _, err := io.ReadAll(a); err != nil {
		t.Errorf("after the end: %v; want EOF", err)
	}
}

// A viewer that detaches leaves the session running, and the next one
// sees its screen.
func TestAttachDetachLeavesTheSession(t *testing.T) {
	e := newStation(t)
	c := serve(t, apitest.Areas(e.st))
	a, err := c.Attach(t.Context(), "t1.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write([]byte("one\r")); err != nil {
		t.Fatal(err)
	}
	shows(t, screen(a), apitest.Got([]byte("one")))
	a.Close()
	if s, ok := e.st.Sessions.Session("t1.1"); !ok || s.State == supervisor.SessEnded {
		t.Fatalf("t1.1 after the viewer left: %+v, %v; want it running", s, ok)
	}
	b, err := c.Attach(t.Context(), "t1.1")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	shows(t, screen(b), apitest.Got([]byte("one")))
}

func TestAttachUnknownSession(t *testing.T) {
	c := serve(t, apitest.Areas(apitest.Board(t, "web")))
	_, err := c.Attach(t.Context(), "s9")
	var ae *apitype.Error
	if !asError(err, &ae) || ae.Status != 404 {
		t.Fatalf("err = %v, want a 404 *apitype.Error", err)
	}
}

// What the station does reaches an event stream, in order: a task added,
// a project paused.
func TestEventsDelivered(t *testing.T) {
	st := apitest.Board(t, "web")
	c := serve(t, apitest.Areas(st))
	ctx, cancel := context.WithCancel(t.Context())
	events, err := c.Events(ctx) // subscribed before its headers came
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Tasks.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "one"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Projects.PauseProject(ctx, "web", "flaky"); err != nil {
		t.Fatal(err)
	}

	e := recv(t, events)
	if e.Kind != supervisor.EventTask || e.Task == nil || e.Task.ID != "t1" || e.Task.State != supervisor.TaskTodo {
		t.Errorf("first event = %+v", e)
	}
	if e := recv(t, events); e.Kind != supervisor.EventProject || e.Project != "web" {
		t.Errorf("second event = %+v", e)
	}
	cancel()
	for range events { // closed once ctx is cancelled
	}
}

func TestEventsEndOnShutdown(t *testing.T) {
	fake := apitest.Board(t, "web")
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.NewServer(apitest.Areas(fake), stationToken, nil).Serve(ctx, ln) }()
	c := &client.Client{BaseURL: "http://" + ln.Addr().String(), Token: stationToken}
	events, err := c.Events(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if err := recv(t, done); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for range events {
	}
}

func TestEventsKeepalive(t *testing.T) {
	fake := apitest.Board(t, "web")
	s := api.NewServer(apitest.Areas(fake), stationToken, nil)
	s.SetKeepalive(10 * time.Millisecond)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", srv.URL+"/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+stationToken)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	readN(t, resp.Body, ": keepalive\n\n")
}

// A tray's event stream (ShowsNotices) tells the station a person sees its
// notices for as long as it stays; another client's stream does not.
func TestNoticesShownWhileATrayListens(t *testing.T) {
	fake := apitest.Board(t, "web")
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	srv := api.NewServer(apitest.Areas(fake), stationToken, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	waitFor := func(want bool) {
		t.Helper()
		testwait.Eventually(t, 10*time.Second, func() bool { return srv.NoticesShown() == want }, fmt.Sprintf("NoticesShown to turn %v", want))
	}
	other, stopOther := context.WithCancel(ctx)
	if _, err := (&client.Client{BaseURL: base, Token: stationToken}).Events(other); err != nil {
		t.Fatal(err)
	}
	// The handler counts a stream before its headers go out, so this is
	// settled once Events returns.
	if srv.NoticesShown() {
		t.Fatal("a stream that does not show notices counts as a tray")
	}
	tray, stopTray := context.WithCancel(ctx)
	if _, err := (&client.Client{BaseURL: base, Token: stationToken, ShowsNotices: true}).Events(tray); err != nil {
		t.Fatal(err)
	}
	waitFor(true)
	stopTray()
	waitFor(false)
	stopOther()
}
