package apitest

import (
	"fmt"
	"sync"

	"github.com/buildstation/buildstation/supervisor"
)

// Console is the fake side of an attached session: the test writes output
// with Out and ends it with End; what the viewer typed arrives on Input and
// its sizes on Resizes.
type Console struct {
	Replay  []byte
	Out     chan []byte    // the test sends live output here
	Input   chan []byte    // each Attachment.Input write, copied
	Resizes chan [2]uint16 // each Attachment.Resize call: cols, rows
	Closed  chan struct{}  // closed when the viewer's Attachment is closed

	endOnce, closeOnce sync.Once
}

// End closes the output, as a session that ended.
func (c *Console) End() { c.endOnce.Do(func() { close(c.Out) }) }

// AddConsole makes session id attachable with replay as its ring buffer.
func (f *Station) AddConsole(id string, replay []byte) *Console {
	c := &Console{
		Replay:  replay,
		Out:     make(chan []byte, 16),
		Input:   make(chan []byte, 64),
		Resizes: make(chan [2]uint16, 16),
		Closed:  make(chan struct{}),
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.consoles[id] = c
	return c
}

func (f *Station) Attach(id string) (*supervisor.Attachment, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.consoles[id]
	if !ok {
		return nil, notFound("session", id)
	}
	return &supervisor.Attachment{
		Replay: c.Replay,
		Output: c.Out,
		Input:  writerFunc(func(p []byte) (int, error) { c.Input <- append([]byte(nil), p...); return len(p), nil }),
		Resize: func(cols, rows uint16) error {
			if cols == 0 || rows == 0 {
				return fmt.Errorf("bad size %dx%d", cols, rows)
			}
			c.Resizes <- [2]uint16{cols, rows}
			return nil
		},
		Close:   func() { c.closeOnce.Do(func() { close(c.Closed) }) },
		Dropped: func() int64 { return 0 },
	}, nil
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }
