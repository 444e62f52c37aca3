package api_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// Any local user may reach the unauthenticated challenge route. Seventy
// connections that send it a body a byte at a time, and never finish, must
// not take the capacity that the station's owner and its agents need:
// status, task ls and an agent's progress still answer at once, and the
// trickling connections are cut off.
func TestStrangersCannotHoldTheAPI(t *testing.T) {
	e := newStation(t)
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	// The same 64 slots as the station, but a short wait for one: a
	// request refused for want of a slot shows within the test.
	srv.SetInFlight(64, 200*time.Millisecond)
	hs := httptest.NewUnstartedServer(srv.Handler())
	var mu sync.Mutex
	active := 0
	started := make(chan struct{})
	hs.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		if s == http.StateActive {
			active++
			if active == 70 {
				close(started)
			}
		}
	}
	hs.Start()
	defer hs.Close()
	addr := hs.Listener.Addr().String()

	var wg sync.WaitGroup
	stop := make(chan struct{})
	cut := make(chan bool, 70)
	for range 70 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /v1/agent/prove HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{", addr)
		wg.Go(func() { cut <- trickle(conn, stop) })
	}
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("the 70 connections did not reach the server")
	}

	c := e
	c.srv = hs
	if _, err := c.client(stationToken).Status(t.Context()); err != nil {
		t.Errorf("status while strangers trickle: %v", err)
	}
	if _, err := c.client(stationToken).Tasks(t.Context(), supervisor.TaskFilter{}); err != nil {
		t.Errorf("task ls while strangers trickle: %v", err)
	}
	if err := c.client("tok-s1").AgentProgress(t.Context(), "still here"); err != nil {
		t.Errorf("agent progress while strangers trickle: %v", err)
	}

	// The trickles do not last: the short read deadline of the
	// unauthenticated route cuts them.
	n := 0
	for range 70 {
		select {
		case ok := <-cut:
			if ok {
				n++
			}
		case <-time.After(time.Minute):
			t.Fatalf("%d trickling connections cut after a minute, want 70", n)
		}
	}
	close(stop)
	wg.Wait()
}

// trickle sends a byte every 100ms until the server ends the connection
// (true) or stop (false).
func trickle(conn net.Conn, stop chan struct{}) bool {
	done := make(chan struct{})
	go func() {
		// The server's answer (408, or just closing) ends the wait.
		bufio.NewReader(conn).ReadByte()
		close(done)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return true
		case <-stop:
			return false
		case <-tick.C:
			conn.Write([]byte(" "))
		}
	}
}
