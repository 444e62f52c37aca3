package cli_test

import (
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A station that is there but closes connections it has no room for (as
// it does to the oldest of a flood's) is busy, not gone: the CLI tries a
// few times and then says so, never "station.json is stale" (which sends
// the person to start another station).
func TestBusyStationIsNotStale(t *testing.T) {
	home := t.TempDir()
	if _, err := apitype.LoadOrCreateToken(home); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: "http://" + ln.Addr().String(), PID: os.Getpid(), StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_HOME", "")
	r := run(t, "", "--home", home, "status")
	if r.code != 1 || !strings.Contains(r.stderr, "the station is busy") || !strings.Contains(r.stderr, "try again") || strings.Contains(r.stderr, "stale") {
		t.Errorf("status at a station that closes every connection: exit %d, stderr %q; want it busy, not stale", r.code, r.stderr)
	}
	if n := accepted.Load(); n < 2 {
		t.Errorf("%d connections tried; want a few tries before giving up", n)
	}
}
