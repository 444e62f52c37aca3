//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// ctlClient sends commands through the monitor's control client: a command
// costs a line on its input and a reply block, where a separate tmux
// process per command costs a fork and exec, a connection and the server's
// attention; under a hundred sessions typing and starting at once that is
// the difference between on time and late. One command goes per line, so
// each line gets exactly one reply block (%begin … %end or %error), and the
// replies come in the order the lines were written.
type ctlClient struct {
	mu      sync.Mutex
	in      io.Writer
	waiting []*ctlCall // written, reply not yet read, in order
	dead    bool
}

type ctlCall struct {
	out  strings.Builder
	err  string // the %error block's text
	fail bool
	done chan struct{}
}

// errCtlGone says the control client ended before it answered; the caller
// runs the command as its own tmux process instead.
var errCtlGone = errors.New("tmux control client gone")

// run sends each command (args split at ";" arguments) and returns their
// output joined, or the first error.
func (c *ctlClient) run(ctx context.Context, args []string) (string, error) {
	cmds := splitCommands(args)
	calls := make([]*ctlCall, 0, len(cmds))
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return "", errCtlGone
	}
	var b strings.Builder
	for _, cmd := range cmds {
		b.WriteString(ctlLine(cmd))
		call := &ctlCall{done: make(chan struct{})}
		calls = append(calls, call)
		c.waiting = append(c.waiting, call)
	}
	_, err := io.WriteString(c.in, b.String())
	c.mu.Unlock()
	if err != nil {
		return "", errCtlGone
	}
	var out strings.Builder
	for i, call := range calls {
		select {
		case <-call.done:
		case <-ctx.Done():
			return "", fmt.Errorf("tmux %s: %w", cmds[i][0], ctx.Err())
		}
		if call.fail {
			if call.err == "" && call.out.Len() == 0 {
				return "", errCtlGone
			}
			return "", fmt.Errorf("tmux %s: %s", cmds[i][0], strings.TrimSpace(call.err))
		}
		out.WriteString(call.out.String())
	}
	return out.String(), nil
}

// next takes the oldest call waiting for its reply (nil if none).
func (c *ctlClient) next() *ctlCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiting) == 0 {
		return nil
	}
	call := c.waiting[0]
	c.waiting = c.waiting[1:]
	return call
}

// close fails every call still waiting: their callers fall back.
func (c *ctlClient) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dead = true
	for _, call := range c.waiting {
		call.fail = true
		close(call.done)
	}
	c.waiting = nil
}

// splitCommands cuts a tmux command list at its ";" arguments.
func splitCommands(args []string) [][]string {
	var out [][]string
	start := 0
	for i, a := range args {
		if a == ";" {
			if i > start {
				out = append(out, args[start:i])
			}
			start = i + 1
		}
	}
	if start < len(args) {
		out = append(out, args[start:])
	}
	return out
}

// ctlLine is one command as a line of tmux's command language: every
// argument double-quoted, so that ";", "#", "{", "~" or a space in it are
// just characters. Only printable text reaches here (keyCommands sends
// anything else by its hex code), so no line holds a newline.
func ctlLine(cmd []string) string {
	var b strings.Builder
	for i, a := range cmd {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tmuxQuote(a))
	}
	b.WriteByte('\n')
	return b.String()
}

// do runs a command list on the server: through the monitor's control
// client when one is up, else as its own tmux process.
func (s *Spawner) do(ctx context.Context, args ...string) (string, error) {
	if c := s.mon.client(); c != nil && !hasNewline(args) {
		out, err := c.run(ctx, args)
		if !errors.Is(err, errCtlGone) {
			return out, err
		}
	}
	return s.run(ctx, args...)
}

func hasNewline(args []string) bool {
	for _, a := range args {
		if strings.ContainsAny(a, "\r\n") {
			return true
		}
	}
	return false
}
