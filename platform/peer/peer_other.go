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
