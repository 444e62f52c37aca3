package api

import (
	"container/list"
	"context"
	"net"
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
const maxStrangerConns = 128

// strangers is the list of open connections that have not yet carried a
// request with a valid token, oldest first.
type strangers struct {
	mu   sync.Mutex
	list list.List // of *conn
	max  int
}

// conn is an accepted connection; el is its place on the strangers' list,
// nil once it showed a token or closed.
type conn struct {
	net.Conn
	s    *strangers
	el   *list.Element
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
	var oldest *conn
	l.s.mu.Lock()
	tc.el = l.s.list.PushBack(tc)
	if l.s.list.Len() > l.s.max {
		oldest = l.s.list.Front().Value.(*conn)
		l.s.removeLocked(oldest)
	}
	l.s.mu.Unlock()
	if oldest != nil {
		oldest.Close()
	}
	return tc, nil
}

func (s *strangers) removeLocked(c *conn) {
	if c.el != nil {
		s.list.Remove(c.el)
		c.el = nil
	}
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
