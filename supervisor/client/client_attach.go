package client

import (
	"context"
	"io"
	"sync"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// AttachConn is a live console on one session (see supervisor/apitype/attach.go for the wire
// protocol). Read returns the session's terminal output, first the replay
// of its recent screens; Write types into it. Read, Write and Resize may be
// called from different goroutines.
type AttachConn struct {
	rwc       io.ReadWriteCloser
	wmu       sync.Mutex // one frame at a time
	stop      func() bool
	closeOnce sync.Once
	closeErr  error
}

// Attach opens a console on session id. Cancelling ctx closes it.
func (c *Client) Attach(ctx context.Context, id string) (*AttachConn, error) {
	req, err := c.newRequest("GET", "/v1/sessions/"+esc(id)+"/attach", nil)
	if err != nil {
		return nil, err
	}
	req.header = append(req.header, [2]string{"Connection", "Upgrade"}, [2]string{"Upgrade", apitype.AttachProtocol})
	resp, err := c.send(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 101 {
		defer resp.Body.Close()
		return nil, readError(resp)
	}
	// A 101's body is the connection itself (wire.go).
	rwc := resp.Body.(io.ReadWriteCloser)
	a := &AttachConn{rwc: rwc}
	a.stop = context.AfterFunc(ctx, func() { rwc.Close() })
	return a, nil
}

// Read reads terminal output; io.EOF when the session's output has ended.
func (a *AttachConn) Read(p []byte) (int, error) { return a.rwc.Read(p) }

// Write types p into the session.
func (a *AttachConn) Write(p []byte) (int, error) {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), apitype.MaxFrame)]
		if err := apitype.WriteFrame(a.rwc, apitype.FrameInput, chunk); err != nil {
			return n, err
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}

// Resize tells the session the viewer's terminal size.
func (a *AttachConn) Resize(cols, rows uint16) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	return apitype.WriteFrame(a.rwc, apitype.FrameResize, apitype.ResizePayload(cols, rows))
}

// Close detaches; the session goes on.
func (a *AttachConn) Close() error {
	a.closeOnce.Do(func() {
		if a.stop != nil {
			a.stop()
		}
		a.closeErr = a.rwc.Close()
	})
	return a.closeErr
}
