//go:build !linux

package peer

import (
	"errors"
	"net/netip"
)

// Supported reports whether Owners can name a connection's processes on
// this OS.
const Supported = false

// Owners is unknown on this OS: errors.ErrUnsupported.
func Owners(client, server netip.AddrPort) ([]int, error) { return nil, errors.ErrUnsupported }

// SameUser is unknown on this OS: errors.ErrUnsupported.
func SameUser(server netip.AddrPort, clients []netip.AddrPort) (map[netip.AddrPort]bool, error) {
	return nil, errors.ErrUnsupported
}
