package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The client speaks HTTP/1.1 itself, over the connections it proves
// (prove.go), rather than through net/http: the station is one known
// server on loopback, and net/http with the TLS, HTTP/2 and IDNA it brings
// is a megabyte of code the command line would initialise on every verb's
// start, and two goroutines per connection (doc.go).
//
// One exchange at a time per connection: a request is written whole, its
// answer read; a body the caller reads to its end hands the connection back to the idle pool for the next
// call. An idle connection is watched (one goroutine blocked reading it):
// one the station closes meanwhile leaves the pool, so the next call dials
// and proves a new one.

// request is one call as it goes on the wire.
type request struct {
	method string
	path   string // with its query
	header [][2]string
	body   []byte // nil: none
}

// response is the station's answer. Body is read by the caller and
// closed; for a 101 (Attach) it is the connection itself.
type response struct {
	StatusCode int
	Status     string // "404 Not Found"
	Header     textproto.MIMEHeader
	Body       io.ReadCloser
}

// maxIdle is how many idle connections the pool keeps per address, and
// idleFor how long one may wait (the station closes them at 2 minutes).
const (
	maxIdle = 16
	idleFor = 90 * time.Second
)

// longAgo is a deadline in the past: it makes a blocked read or write on a
// connection return at once.
var longAgo = time.Unix(1, 0)

// wireConn is one proven connection and its reader.
type wireConn struct {
	net.Conn
	br      *bufio.Reader
	addr    string
	idleAt  time.Time
	watched chan error // while idle: what the watcher's read ended with
}

// pool holds a client's idle connections, newest last.
type pool struct {
	mu   sync.Mutex
	idle map[string][]*wireConn
}

// put hands wc back for another call and watches it while it waits.
func (p *pool) put(wc *wireConn) {
	p.mu.Lock()
	if p.idle == nil {
		p.idle = map[string][]*wireConn{}
	}
	if len(p.idle[wc.addr]) >= maxIdle {
		p.mu.Unlock()
		wc.Close()
		return
	}
	wc.idleAt = time.Now()
	wc.watched = make(chan error, 1)
	p.idle[wc.addr] = append(p.idle[wc.addr], wc)
	p.mu.Unlock()
	go func() {
		_, err := wc.br.Peek(1)
		if !errors.Is(err, os.ErrDeadlineExceeded) && p.remove(wc) {
			wc.Close() // the station closed it (or spoke out of turn)
			return
		}
		wc.watched <- err
	}()
}

// remove takes wc out of the pool; false when a call took it first.
func (p *pool) remove(wc *wireConn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := p.idle[wc.addr]
	for i, x := range list {
		if x == wc {
			p.idle[wc.addr] = append(list[:i], list[i+1:]...)
			return true
		}
	}
	return false
}

// get returns an idle connection to addr that is still open, or nil.
func (p *pool) get(addr string) *wireConn {
	for {
		p.mu.Lock()
		list := p.idle[addr]
		if len(list) == 0 {
			p.mu.Unlock()
			return nil
		}
		wc := list[len(list)-1]
		p.idle[addr] = list[:len(list)-1]
		p.mu.Unlock()
		// Stop the watcher: its read ends at once, with a timeout if
		// nothing came meanwhile.
		wc.SetReadDeadline(longAgo)
		err := <-wc.watched
		wc.SetReadDeadline(time.Time{})
		if errors.Is(err, os.ErrDeadlineExceeded) && time.Since(wc.idleAt) < idleFor {
			return wc
		}
		wc.Close()
	}
}

// conn is a connection to addr for one exchange: an idle one, Dial's
// spare, or a new one, proven. reused says it carried a call before.
func (c *Client) conn(ctx context.Context, addr string) (wc *wireConn, reused bool, err error) {
	if wc := c.idle.get(addr); wc != nil {
		return wc, true, nil
	}
	conn := c.takeSpare(addr)
	if conn == nil {
		if conn, err = c.dialProven(ctx, "tcp", addr); err != nil {
			return nil, false, err
		}
	}
	return &wireConn{Conn: conn, br: bufio.NewReader(conn), addr: addr}, false, nil
}

// roundTrip makes one exchange with the station at base ("http://host:port").
// A stream's body (Events, AgentAsk) is read for as long as ctx lives; an
// upgrade's (Attach) is the connection.
func (c *Client) roundTrip(ctx context.Context, base string, req *request) (*response, error) {
	u, err := url.Parse(base)
	if err == nil && u.Scheme != "http" {
		err = fmt.Errorf("unsupported protocol scheme %q", u.Scheme)
	}
	if err != nil {
		return nil, &url.Error{Op: opName(req.method), URL: base + req.path, Err: err}
	}
	for {
		wc, reused, err := c.conn(ctx, u.Host)
		if err != nil {
			return nil, &url.Error{Op: opName(req.method), URL: base + req.path, Err: err}
		}
		resp, err := c.exchange(ctx, wc, req)
		if err == nil {
			return resp, nil
		}
		wc.Close()
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if reused && errors.Is(err, errStale) {
			continue // the station closed it as the call went out: nothing reached it
		}
		return nil, &url.Error{Op: opName(req.method), URL: base + req.path, Err: err}
	}
}

// errStale is a reused connection that ended before any of its answer:
// the station closed it while it was idle.
var errStale = errors.New("the station closed the idle connection")

// opName is the method as url.Error names it ("Get"), as net/http did.
func opName(method string) string {
	return method[:1] + strings.ToLower(method[1:])
}

// exchange writes req on wc and reads the answer's head; the body is left
// to the caller.
func (c *Client) exchange(ctx context.Context, wc *wireConn, req *request) (*response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { wc.SetDeadline(longAgo) })
	fail := func(err error) (*response, error) {
		stop()
		return nil, err
	}
	if err := writeRequest(wc, wc.addr, req); err != nil {
		if closedEarly(err) {
			err = errors.Join(errStale, err)
		}
		return fail(err)
	}
	resp, err := readResponse(wc.br)
	if err != nil {
		if closedEarly(err) && wc.br.Buffered() == 0 && req.method == "GET" {
			err = errors.Join(errStale, err)
		}
		return fail(err)
	}
	if resp.StatusCode == 101 {
		stop() // the caller owns the connection now, and its cancelling
		resp.Body = &upgraded{Conn: wc.Conn, br: wc.br}
		return resp, nil
	}
	r, keep := bodyOf(resp, wc.br, req.method)
	resp.Body = &body{r: r, ctx: ctx, done: func(eof bool) {
		if !stop() || !eof || !keep {
			wc.Close()
			return
		}
		c.idle.put(wc)
	}}
	return resp, nil
}

// writeRequest writes req as HTTP/1.1 to w, for the station at addr.
func writeRequest(w io.Writer, addr string, req *request) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.method, req.path, addr)
	for _, kv := range req.header {
		fmt.Fprintf(&b, "%s: %s\r\n", kv[0], kv[1])
	}
	if req.body != nil || req.method == "POST" || req.method == "PUT" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(req.body))
	}
	b.WriteString("\r\n")
	b.Write(req.body)
	_, err := w.Write(b.Bytes())
	return err
}

// readResponse reads an answer's status line and header, skipping
// informational ones (100 Continue) but not 101.
func readResponse(br *bufio.Reader) (*response, error) {
	tp := textproto.NewReader(br)
	for {
		line, err := tp.ReadLine()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		proto, status, _ := strings.Cut(line, " ")
		code, cerr := strconv.Atoi(status[:min(3, len(status))])
		if !strings.HasPrefix(proto, "HTTP/1.") || cerr != nil || code < 100 || code > 999 {
			return nil, fmt.Errorf("malformed HTTP response %q", line)
		}
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return nil, err
		}
		if code/100 == 1 && code != 101 {
			continue
		}
		keep := proto == "HTTP/1.1" && !headerHas(h, "Connection", "close")
		if !keep {
			h.Set("Connection", "close")
		}
		return &response{StatusCode: code, Status: status, Header: h}, nil
	}
}

// bodyOf frames resp's body on br: chunked, by its length, or to the
// connection's close. keep says the connection may carry another call
// once the body is read.
func bodyOf(resp *response, br *bufio.Reader, method string) (r io.Reader, keep bool) {
	keep = !headerHas(resp.Header, "Connection", "close")
	switch {
	case method == "HEAD" || resp.StatusCode/100 == 1 || resp.StatusCode == 204 || resp.StatusCode == 304:
		return eofReader{}, keep
	case headerHas(resp.Header, "Transfer-Encoding", "chunked"):
		return &chunked{br: br}, keep
	case resp.Header.Get("Content-Length") != "":
		n, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64)
		if err != nil || n < 0 {
			return errReader{fmt.Errorf("bad Content-Length %q", resp.Header.Get("Content-Length"))}, false
		}
		return io.LimitReader(br, n), keep
	}
	return br, false // read to close
}

// headerHas says whether one of h's comma-separated values for key is v.
func headerHas(h textproto.MIMEHeader, key, v string) bool {
	for _, line := range h.Values(key) {
		for f := range strings.SplitSeq(line, ",") {
			if strings.EqualFold(strings.TrimSpace(f), v) {
				return true
			}
		}
	}
	return false
}

// chunked reads a chunked body: hex size lines, each chunk followed by
// CRLF, ended by a zero size and the (skipped) trailer.
type chunked struct {
	br   *bufio.Reader
	left int64 // of the current chunk
	more bool  // a chunk was read: its CRLF comes before the next size
	err  error
}

func (c *chunked) Read(p []byte) (int, error) {
	for c.err == nil && c.left == 0 {
		c.err = c.next()
	}
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.br.Read(p[:min(int64(len(p)), c.left)])
	c.left -= int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	c.err = err
	return n, err
}

// next reads the next chunk's size; io.EOF after the last.
func (c *chunked) next() error {
	tp := textproto.NewReader(c.br)
	if c.more {
		if line, err := tp.ReadLine(); err != nil || line != "" {
			return fmt.Errorf("malformed chunked body: %v", orUnexpected(err))
		}
	}
	line, err := tp.ReadLine()
	if err != nil {
		return orUnexpected(err)
	}
	size, _, _ := strings.Cut(line, ";")
	n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("malformed chunk size %q", line)
	}
	c.left, c.more = n, true
	if n > 0 {
		return nil
	}
	for { // the trailer, to its blank line
		line, err := tp.ReadLine()
		if err != nil {
			return orUnexpected(err)
		}
		if line == "" {
			return io.EOF
		}
	}
}

func orUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// body is an answer's body; done runs once, on Close, with whether the
// body was read to its end (then the connection may serve again).
type body struct {
	r    io.Reader
	ctx  context.Context
	eof  atomic.Bool
	once sync.Once
	done func(eof bool)
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.eof.Store(true)
	} else if err != nil && b.ctx.Err() != nil {
		err = b.ctx.Err()
	}
	return n, err
}

// Close ends the exchange: a body read to its end leaves its connection
// to the next call; one left unread (a stream) closes it.
func (b *body) Close() error {
	b.once.Do(func() { b.done(b.eof.Load()) })
	return nil
}

// upgraded is a 101's connection: what the station sent after the
// answer's head is in br, read first; then the connection itself, which
// several goroutines may read in turn.
type upgraded struct {
	net.Conn
	br *bufio.Reader // nil once drained
}

func (u *upgraded) Read(p []byte) (int, error) {
	if u.br != nil && u.br.Buffered() == 0 {
		u.br = nil
	}
	if u.br == nil {
		return u.Conn.Read(p)
	}
	return u.br.Read(p[:min(len(p), u.br.Buffered())])
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
