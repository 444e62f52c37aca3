package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Any local user may open connections to the API. Thousands of them, each
// answered once without a token and then held open (keep-alive), must
// neither use up the station's file descriptors and memory nor lock out
// its owner: connections that never showed a token are few at any time
// (the oldest are closed first), and the owner's and agents' connections,
// even idle ones, are left alone.
func TestStrangersCannotHoldConnections(t *testing.T) {
	st := apitest.Board(t, "web")
	ln, err := api.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- api.NewServer(apitest.Areas(st), stationToken, nil).Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	owner := &client.Client{BaseURL: "http://" + addr, Token: stationToken}
	if _, err := owner.Status(t.Context()); err != nil {
		t.Fatal(err) // its connection stays open, idle, for reuse
	}

	const strangers = 1000
	conns := make([]net.Conn, 0, strangers)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range strangers {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /v1/status HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			resp.Body.Close()
		}
	}
	open := 0
	deadline := time.Now().Add(200 * time.Millisecond)
	for _, c := range conns {
		c.SetReadDeadline(deadline)
		if _, err := c.Read(make([]byte, 1)); err != nil && isTimeout(err) {
			open++ // still held by the station
		}
	}
	if open > 200 {
		t.Errorf("%d of %d connections that never showed a token are still open; want at most a few hundred", open, strangers)
	}
	if _, err := owner.Status(t.Context()); err != nil {
		t.Errorf("the owner after the flood: %v", err)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
