//go:build !linux

package peer

import (
	"errors"
	"net/netip"
)

// Owners is unknown on this OS: errors.ErrUnsupported.
func Owners(client, server netip.AddrPort) ([]int, error) { return nil, errors.ErrUnsupported }
