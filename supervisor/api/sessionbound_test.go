package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// An agent holds its session's token. Forty asks it starts and never
// finishes (a body a byte at a time) must not hold the station: past the
// session's few slots they are refused at once (503), the rest are cut by
// the body's deadline (408), and another session's agent is answered
// meanwhile. (Before, /v1/agent/ask had no deadline and no bound: 15.9k
// such bodies took the station from 75 MB to 687 MB.)
func TestSessionRoutesAreBounded(t *testing.T) {
	e := newStation(t)
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	srv.SetAgentLimits(4, 300*time.Millisecond)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	addr := hs.Listener.Addr().String()

	const n = 40
	answers := make(chan string, 2*n)
	stop := make(chan struct{})
	defer close(stop)
	for i := range n {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		route := "/v1/agent/ask"
		if i%4 == 3 {
			route = "/v1/agent/hook"
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{", route, addr, e.tok("tok-s1"))
		go func() { answers <- trickleStatus(conn, stop) }()
	}
	e.srv = hs
	if err := e.client("tok-s2").AgentProgress(t.Context(), "still here"); err != nil {
		t.Errorf("another session's progress while t1.1 trickles: %v", err)
	}
	counts := map[string]int{}
	timeout := time.After(10 * time.Second)
	for i := range n {
		select {
		case a := <-answers:
			counts[a]++
		case <-timeout:
			t.Fatalf("after 10 s, %d of %d half-sent bodies still hold the station (answered: %v)", n-i, n, counts)
		}
	}
	// 4 pending asks and 4 pending hooks: the rest are refused.
	if counts["503"] < n-8 || counts["503"]+counts["408"] != n {
		t.Errorf("answers %v; want at most 8 cut by the deadline (408), the rest refused (503)", counts)
	}
}

// trickleStatus sends a byte every 50ms until the server answers and
// closes the connection, and returns the answer's status code ("closed"
// if it closed without one).
func trickleStatus(conn net.Conn, stop chan struct{}) string {
	got := make(chan string, 1)
	go func() {
		br := bufio.NewReader(conn)
		line, err := br.ReadString('\n')
		status := "closed"
		if f := strings.Fields(line); err == nil && len(f) > 1 {
			status = f[1]
		}
		// Cut off means closed: read on to the end of the connection.
		io.Copy(io.Discard, br)
		got <- status
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case s := <-got:
			return s
		case <-stop:
			return "stopped"
		case <-tick.C:
			conn.Write([]byte(" "))
		}
	}
}
