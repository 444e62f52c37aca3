package peer

import (
	"net"
	"net/netip"
	"os"
	"slices"
	"testing"
)

// The process holding a loopback connection's client end is found: here,
// this test itself.
func TestOwnersFindsThisProcess(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	client := netip.MustParseAddrPort(c.LocalAddr().String())
	server := netip.MustParseAddrPort(c.RemoteAddr().String())
	pids, err := Owners(client, server)
	if err != nil || !slices.Contains(pids, os.Getpid()) {
		t.Fatalf("Owners = %v, %v; want this process %d", pids, err, os.Getpid())
	}
	if _, err := Owners(server, client); err != nil {
		t.Errorf("the server end: %v", err)
	}
	if _, err := Owners(netip.MustParseAddrPort("127.0.0.1:1"), server); err == nil {
		t.Error("a socket that does not exist was found")
	}
}

func TestParseAddr(t *testing.T) {
	got, err := parseAddr("0100007F:1F90")
	if err != nil || got != netip.MustParseAddrPort("127.0.0.1:8080") {
		t.Fatalf("parseAddr = %v, %v", got, err)
	}
}
