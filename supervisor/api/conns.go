package api

import (
	"container/list"
	"context"
	"net"
	"net/netip"
	"sync"
)

// maxStrangerConns bounds the open connections that have not shown a
// valid token. Any local user can open connections to the API, and each
// costs the station a file descriptor and tens of KB; without a bound, a
// few thousand held open (a request answered 401, then kept alive) used
// up the station's descriptors, and its owner's CLI could not connect.
// Past the bound the oldest stranger is closed: a real client shows its
// token within milliseconds of connecting (after the challenge), which
// takes its connection off the list for good.
//
// Where the OS tells whose process opened a connection (ConnOwners:
// Linux), the connections of the station's own user — its CLI, its tray,
// its agents' hook calls, all of which have the token — are set apart
// before any is closed, with a bound of their own (maxKinConns): another
// user's flood closes only its own connections (the oldest quarter at a
// time, so the OS is asked once per many connections).
const (
	maxStrangerConns = 128
	maxKinConns      = 512
)

// ConnOwners tells, of the clients connected to server, which were
// opened by a process of the user the station runs as (true) or of
// another (false); a client it cannot place is left out. The wiring
// hands in platform/peer's where the OS can tell.
type ConnOwners func(server netip.AddrPort, clients []netip.AddrPort) (map[netip.AddrPort]bool, error)

// SetConnOwners has the server tell its own user's connections from
// another user's when too many have shown no token (see maxStrangerConns).
func (s *Server) SetConnOwners(f ConnOwners) { s.connOwners = f }

// strangers is the list of open connections that have not yet carried a
// request with a valid token, oldest first: another user's (or unplaced)
// on list, the station's own user's on kin.
type strangers struct {
	mu     sync.Mutex
	list   list.List // of *conn
	kin    list.List // of *conn
	max    int
	maxKin int
	owners ConnOwners
	server netip.AddrPort
}

// conn is an accepted connection; el is its place on the strangers' list
// (kin's when kin), nil once it showed a token or closed.
type conn struct {
	net.Conn
	s    *strangers
	el   *list.Element
	kin  bool
	once sync.Once
}

// listener tracks each accepted connection as a stranger.
type listener struct {
	net.Listener
	s *strangers
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &conn{Conn: c, s: l.s}
	var evict []*conn
	l.s.mu.Lock()
	tc.el = l.s.list.PushBack(tc)
	if l.s.list.Len() > l.s.max {
		evict = l.s.makeRoomLocked()
	}
	l.s.mu.Unlock()
	for _, c := range evict {
		c.Close()
	}
	return tc, nil
}

// makeRoomLocked takes strangers off a full list: the station's own
// user's onto kin, where the OS can tell, then the oldest others. It
// returns the connections to close.
func (s *strangers) makeRoomLocked() []*conn {
	keep := s.max
	if s.owners != nil {
		clients := make([]netip.AddrPort, 0, s.list.Len())
		for e := s.list.Front(); e != nil; e = e.Next() {
			if ap, err := netip.ParseAddrPort(e.Value.(*conn).RemoteAddr().String()); err == nil {
				clients = append(clients, ap)
			}
		}
		if own, err := s.owners(s.server, clients); err == nil {
			for e := s.list.Front(); e != nil; {
				next := e.Next()
				c := e.Value.(*conn)
				if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil && own[ap] {
					s.list.Remove(e)
					c.el, c.kin = s.kin.PushBack(c), true
				}
				e = next
			}
			keep = s.max * 3 / 4
		}
	}
	var evict []*conn
	for _, l := range []struct {
		list *list.List
		keep int
	}{{&s.list, keep}, {&s.kin, s.maxKin}} {
		for l.list.Len() > l.keep {
			c := l.list.Front().Value.(*conn)
			s.removeLocked(c)
			evict = append(evict, c)
		}
	}
	return evict
}

func (s *strangers) removeLocked(c *conn) {
	if c.el == nil {
		return
	}
	if c.kin {
		s.kin.Remove(c.el)
	} else {
		s.list.Remove(c.el)
	}
	c.el = nil
}

// trusted takes c off the strangers' list: it carried a valid token.
func (c *conn) trusted() {
	c.s.mu.Lock()
	c.s.removeLocked(c)
	c.s.mu.Unlock()
}

func (c *conn) Close() error {
	c.s.mu.Lock()
	c.s.removeLocked(c)
	c.s.mu.Unlock()
	var err error
	c.once.Do(func() { err = c.Conn.Close() })
	return err
}

type connKeyType struct{}

var connKey connKeyType

// withConn is the http.Server's ConnContext: a request can find its
// connection, to mark it trusted.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*conn); ok {
		return context.WithValue(ctx, connKey, tc)
	}
	return ctx
}

// trustConn marks the connection ctx's request came on as trusted.
func trustConn(ctx context.Context) {
	if tc, ok := ctx.Value(connKey).(*conn); ok {
		tc.trusted()
	}
}
