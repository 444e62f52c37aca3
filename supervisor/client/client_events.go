package client

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Events subscribes to the station's event stream. The channel is closed
// when ctx is cancelled or the stream ends (the station stopped); the tray
// reconnects and re-reads state then.
func (c *Client) Events(ctx context.Context) (<-chan supervisor.Event, error) {
	req, err := c.newRequest("GET", "/v1/events", nil)
	if err != nil {
		return nil, err
	}
	req.header = append(req.header, [2]string{"Accept", "text/event-stream"})
	if c.ShowsNotices {
		req.header = append(req.header, [2]string{apitype.HeaderShowsNotices, "1"})
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		defer resp.Body.Close()
		return nil, readError(resp)
	}
	out := make(chan supervisor.Event, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		readEvents(ctx, resp.Body, out, streamIdle)
	}()
	return out, nil
}

// streamIdle is how long the event stream may say nothing, not even the
// station's keepalive (every 15 s), before it is taken for dead: a station
// that hangs (stopped by a debugger or SIGSTOP, wedged) then ends the
// stream as one that exited does, and the tray says it is lost.
const streamIdle = 45 * time.Second

// readEvents parses the SSE stream: "data:" lines up to a blank line make
// one event; comments (keepalives) and other fields are skipped. Silent for
// idle, the stream is closed.
func readEvents(ctx context.Context, body io.ReadCloser, out chan<- supervisor.Event, idle time.Duration) {
	quiet := time.AfterFunc(idle, func() { body.Close() })
	defer quiet.Stop()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	var data strings.Builder
	for sc.Scan() {
		quiet.Reset(idle)
		line := sc.Text()
		if line != "" {
			if v, ok := strings.CutPrefix(line, "data:"); ok {
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.WriteString(strings.TrimPrefix(v, " "))
			}
			continue
		}
		if data.Len() == 0 {
			continue
		}
		var e supervisor.Event
		err := json.Unmarshal([]byte(data.String()), &e)
		data.Reset()
		if err != nil {
			continue // a newer station's event this client cannot read
		}
		select {
		case out <- e:
		case <-ctx.Done():
			return
		}
	}
}
