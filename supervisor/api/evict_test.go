package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// ownPorts is a stand-in for the OS's answer (platform/peer on Linux):
// the client ports the test opened as the station's own user; every other
// connection is another user's.
type ownPorts struct {
	mu    sync.Mutex
	ports map[uint16]bool
}

func (o *ownPorts) add(c net.Conn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ports[netip.MustParseAddrPort(c.LocalAddr().String()).Port()] = true
}

func (o *ownPorts) SameUser(_ netip.AddrPort, clients []netip.AddrPort) (map[netip.AddrPort]bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := map[netip.AddrPort]bool{}
	for _, c := range clients {
		out[c] = o.ports[c.Port()]
	}
	return out, nil
}

// Another local user opens connection after connection. An agent's hook
// call, whose connection was accepted before the flood and whose request
// comes after 300 of the stranger's connections, is still answered: a
// connection of the station's own user is never evicted for another
// user's. (Before, the oldest stranger was closed first, whoever it was:
// the hook got EOF, its report was lost, and the owner's `status` read
// "station.json is stale".)
func TestAnotherUsersFloodCannotEvictAnAgent(t *testing.T) {
	e := newStation(t)
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	own := &ownPorts{ports: map[uint16]bool{}}
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	srv.SetConnOwners(own.SameUser)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()

	var agents []net.Conn
	for range 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		own.add(c)
		agents = append(agents, c)
	}
	for range 300 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	// The server has accepted them all once a request on a later
	// connection is answered.
	last, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer last.Close()
	fmt.Fprintf(last, "GET /v1/status HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	if _, err := http.ReadResponse(bufio.NewReader(last), nil); err != nil {
		t.Fatalf("a request after the flood: %v", err)
	}
	body := `{"hook_event_name":"PostToolUse"}`
	for i, c := range agents {
		fmt.Fprintf(c, "POST /v1/agent/hook HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, e.tok("tok-s1"), len(body), body)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Errorf("agent hook %d after another user's flood: %v", i, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("agent hook %d: %s", i, resp.Status)
		}
	}
}
