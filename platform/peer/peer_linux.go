package peer

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Supported reports whether Owners can name a connection's processes on
// this OS.
const Supported = true

// Owners returns the pids of the processes that hold the TCP socket whose
// own end is client and whose far end is server, as far as this user may
// see (another user's processes do not show). An empty list with no error
// means the socket is there but its holders are not visible.
func Owners(client, server netip.AddrPort) ([]int, error) {
	inode, err := socketInode("/proc/net/tcp", client, server)
	if err != nil {
		return nil, err
	}
	return holders("/proc", "socket:["+inode+"]")
}

// socketInode finds the socket client→server in a /proc/net/tcp table.
func socketInode(table string, client, server netip.AddrPort) (string, error) {
	f, err := os.Open(table)
	if err != nil {
		return "", fmt.Errorf("read the TCP table: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 10 {
			continue
		}
		local, err1 := parseAddr(fs[1])
		remote, err2 := parseAddr(fs[2])
		if err1 == nil && err2 == nil && local == client && remote == server {
			return fs[9], nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read the TCP table: %w", err)
	}
	return "", fmt.Errorf("no TCP socket from %s to %s", client, server)
}

// parseAddr reads /proc/net/tcp's "0100007F:1F90": the IPv4 address as
// the kernel holds it in memory (network order), printed as a native
// 32-bit number, then the port.
func parseAddr(s string) (netip.AddrPort, error) {
	h, p, ok := strings.Cut(s, ":")
	if !ok || len(h) != 8 {
		return netip.AddrPort{}, errors.New("not an IPv4 address")
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return netip.AddrPort{}, err
	}
	var ip [4]byte
	binary.NativeEndian.PutUint32(ip[:], binary.BigEndian.Uint32(b))
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, err
	}
	return netip.AddrPortFrom(netip.AddrFrom4(ip), uint16(port)), nil
}

// holders are the pids under proc with an open file that links to target.
func holders(proc, target string) ([]int, error) {
	ents, err := os.ReadDir(proc)
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		fds := filepath.Join(proc, e.Name(), "fd")
		names, err := os.ReadDir(fds)
		if err != nil {
			continue // gone, or another user's
		}
		for _, n := range names {
			if l, err := os.Readlink(filepath.Join(fds, n.Name())); err == nil && l == target {
				out = append(out, pid)
				break
			}
		}
	}
	return out, nil
}

// SameUser tells, for each client whose connection to server is in the
// TCP table, whether it was opened by a process of the user this process
// runs as (the table's uid column, which shows every user's sockets): one
// read of the table for the lot, so a station under a flood of
// connections can tell its own user's from another's. A client missing
// from the table is left out.
func SameUser(server netip.AddrPort, clients []netip.AddrPort) (map[netip.AddrPort]bool, error) {
	want := make(map[netip.AddrPort]bool, len(clients))
	for _, c := range clients {
		want[c] = true
	}
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return nil, fmt.Errorf("read the TCP table: %w", err)
	}
	defer f.Close()
	me := strconv.Itoa(os.Geteuid())
	out := make(map[netip.AddrPort]bool, len(clients))
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 10 {
			continue
		}
		local, err1 := parseAddr(fs[1])
		remote, err2 := parseAddr(fs[2])
		if err1 != nil || err2 != nil || remote != server || !want[local] {
			continue
		}
		out[local] = fs[7] == me
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the TCP table: %w", err)
	}
	return out, nil
}
