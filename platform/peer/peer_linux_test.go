package peer

import (
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
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

// A connection another user's process opened (nobody's, through bash's
// /dev/tcp) is told from this process's own.
func TestSameUserTellsAnotherUsersConnection(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a process as another user")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for /dev/tcp")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	server := netip.MustParseAddrPort(ln.Addr().String())
	own, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	cmd := exec.Command(bash, "-c", "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(int(server.Port()))+"; read -t 30 <&3")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var others []net.Conn
	for len(others) < 2 {
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		others = append(others, c)
	}
	var clients []netip.AddrPort
	for _, c := range others {
		clients = append(clients, netip.MustParseAddrPort(c.RemoteAddr().String()))
	}
	got, err := SameUser(server, clients)
	if err != nil {
		t.Fatal(err)
	}
	ownAddr := netip.MustParseAddrPort(own.LocalAddr().String())
	for _, c := range clients {
		if want := c == ownAddr; got[c] != want {
			t.Errorf("SameUser(%s) = %v, want %v (all: %v)", c, got[c], want, got)
		}
	}
}
