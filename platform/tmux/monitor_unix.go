//go:build unix

package tmux

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// subscription is the control-mode subscription that reports every pane's
// death and exit status as they change. tmux (3.2 and later) evaluates it
// inside the server once a second and writes a line only on a change.
const (
	subName   = "bs-dead"
	subFormat = "#{pane_dead} #{pane_dead_status} #{pane_dead_signal}"
)

// monitor learns of every agent's exit for one spawner, whatever the
// number of sessions, without a per-session poll or parked client: one
// tmux control-mode client (tmux -C) on the station's server, with its
// pane output turned off (output arrives through each pane's pipe), reports
// a pane's death through a subscription and a closed window through
// %window-close. A line names the pane or window; the monitor pokes the
// session's watcher, which looks at the pane once.
//
// Where control mode cannot run (a tmux older than 3.2 refuses the
// subscription), one `list-panes -a` per Spawner.WaitCheck covers every
// session at once.
//
// The client runs only while some session is watched.
type monitor struct {
	sp *Spawner

	mu      sync.Mutex
	panes   map[string]*proc // by pane id
	wins    map[string]*proc // by window id
	running bool
	kick    chan struct{} // a session was dropped: the loop may end
	ctl     *ctlClient    // the control client's command channel, while it runs
}

// client is the control client's command channel, or nil.
func (m *monitor) client() *ctlClient {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ctl
}

func (m *monitor) add(p *proc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.panes == nil {
		m.panes, m.wins = map[string]*proc{}, map[string]*proc{}
		m.kick = make(chan struct{}, 1)
	}
	m.panes[p.w.pane], m.wins[p.w.id] = p, p
	if !m.running {
		m.running = true
		go m.run()
	}
}

func (m *monitor) remove(p *proc) {
	m.mu.Lock()
	if m.panes[p.w.pane] == p {
		delete(m.panes, p.w.pane)
	}
	if m.wins[p.w.id] == p {
		delete(m.wins, p.w.id)
	}
	m.mu.Unlock()
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// idle reports whether no session is watched, and if so marks the loop
// stopped under the same lock, so that a concurrent add starts a new one.
func (m *monitor) idle() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.panes) == 0 {
		m.running = false
		return true
	}
	return false
}

// pokeAll has every watched session look at its pane: after the control
// client ended, something may have happened that it did not report.
func (m *monitor) pokeAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.panes {
		p.poke()
	}
}

func (m *monitor) pokePane(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.panes[id]; p != nil {
		p.poke()
	}
}

func (m *monitor) pokeWindow(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.wins[id]; p != nil {
		p.poke()
	}
}

func (m *monitor) interval() time.Duration {
	if m.sp.WaitCheck > 0 {
		return m.sp.WaitCheck
	}
	return defaultWaitCheck
}

// run keeps a control client while sessions are watched. When the client
// ends (the server died, the session was killed) every session looks once;
// those whose window is gone settle and are dropped, and the client starts
// again for the rest, or the loop falls back to scanning.
func (m *monitor) run() {
	for !m.idle() {
		err := m.control()
		m.pokeAll()
		if errors.Is(err, errNoControl) {
			m.scan()
			return
		}
		if m.idle() {
			return
		}
		// The client ended with sessions left (the server went, or the
		// session was killed): the pokes settle the lost ones; start again
		// for the rest after a pause, so a failing start cannot spin.
		t := time.NewTimer(m.interval())
		select {
		case <-t.C:
		case <-m.kick:
		}
		t.Stop()
	}
}

// errNoControl says this tmux cannot report pane deaths in control mode.
var errNoControl = errors.New("tmux control mode has no subscriptions (tmux older than 3.2)")

// control runs one control client until it ends or no session is left.
func (m *monitor) control() error {
	if m.sp.noControl {
		return errNoControl
	}
	bin, err := tmuxPath()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, "-S", m.sp.sock, "-C", "attach-session", "-f", "no-output,ignore-size", "-t", "="+SessionName)
	cmd.Env = clientEnv()
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("tmux control client: %w", err)
	}
	c := &ctlClient{in: in}
	ended := make(chan error, 1)
	go func() { ended <- m.read(out, c) }()
	res := m.serveControl(c, in, ended)
	m.mu.Lock()
	if m.ctl == c {
		m.ctl = nil
	}
	m.mu.Unlock()
	c.close()
	in.Close()
	_ = cmd.Wait()
	if errors.Is(res, errCtlGone) {
		// It ended before the subscription was answered.
		res = errNoControl
	}
	return res
}

// serveControl subscribes the control client c to pane deaths and keeps it
// until it ends or no pane is left to watch; it returns why it ended.
func (m *monitor) serveControl(c *ctlClient, in io.Closer, ended <-chan error) error {
	// The subscription reports every pane once when it starts, so a death
	// while no client ran is seen now. An error means a tmux without
	// subscriptions.
	subscribed := make(chan error, 1)
	go func() {
		err := subscribe(c)
		if err == nil {
			m.mu.Lock()
			m.ctl = c
			m.mu.Unlock()
		} else if !errors.Is(err, errCtlGone) {
			err = errNoControl
		}
		subscribed <- err
	}()
	for {
		select {
		case err := <-subscribed:
			if err != nil {
				in.Close()
				<-ended
				return err
			}
		case res := <-ended:
			return res
		case <-m.kick:
			m.mu.Lock()
			empty := len(m.panes) == 0
			m.mu.Unlock()
			if empty {
				in.Close() // a control client ends at the end of its input
				return <-ended
			}
		}
	}
}

// subscribe asks the control client for pane deaths. The line can reach
// the server before the client's own attach-session has made it a client
// (seen under load: "no current client"); it is asked again then, for a
// while, rather than taken for a tmux without subscriptions.
func subscribe(c *ctlClient) error {
	wait := 10 * time.Millisecond
	for end := time.Now().Add(attachWait); ; {
		_, err := c.run(context.Background(), []string{"refresh-client", "-B", subName + ":%*:" + subFormat})
		if err == nil || !strings.Contains(err.Error(), "no current client") || time.Now().After(end) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// attachWait bounds how long a control client may take to attach.
const attachWait = 10 * time.Second

// read follows the client's output until it ends: reply blocks go to the
// calls waiting for them, notifications poke sessions.
func (m *monitor) read(r io.Reader, c *ctlClient) error {
	defer c.close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var call *ctlCall // the reply being read, if it is a call's
	inBlock := false
	for sc.Scan() {
		line := sc.Text()
		if inBlock {
			// Inside a reply every line is its text ("%0 0" from
			// list-panes included) up to the block's end.
			if strings.HasPrefix(line, "%end ") || strings.HasPrefix(line, "%error ") {
				inBlock = false
				if call != nil {
					if strings.HasPrefix(line, "%error ") {
						call.fail = true
						call.err = call.out.String()
						call.out.Reset()
					}
					close(call.done)
					call = nil
				}
				continue
			}
			if call != nil {
				call.out.WriteString(line)
				call.out.WriteByte('\n')
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "%begin":
			// %begin TIME NUMBER FLAGS: flags 1 marks a command this
			// client sent; attach-session's own reply has 0.
			inBlock = true
			if len(f) >= 4 && f[3] == "1" {
				call = c.next()
			}
		case "%subscription-changed":
			// %subscription-changed NAME $S @W IDX %P : VALUE
			if len(f) >= 6 && f[1] == subName {
				m.pokePane(f[5])
			}
		case "%window-close", "%unlinked-window-close":
			if len(f) >= 2 {
				m.pokeWindow(f[1])
			}
		case "%exit":
			_, _ = io.Copy(io.Discard, r)
			return nil
		}
	}
	return sc.Err()
}

// scan is the fallback for a tmux without subscriptions: one list-panes
// for every session per interval, poking the sessions whose pane died or
// went.
func (m *monitor) scan() {
	t := time.NewTicker(m.interval())
	defer t.Stop()
	for !m.idle() {
		select {
		case <-t.C:
		case <-m.kick:
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
		out, err := m.sp.run(ctx, "list-panes", "-a", "-F", "#{pane_id} #{pane_dead}")
		cancel()
		if err != nil {
			m.pokeAll()
			continue
		}
		live := map[string]bool{}
		for line := range strings.SplitSeq(out, "\n") {
			if id, dead, ok := strings.Cut(line, " "); ok && dead != "1" {
				live[id] = true
			}
		}
		m.mu.Lock()
		for id, p := range m.panes {
			if !live[id] {
				p.poke()
			}
		}
		m.mu.Unlock()
	}
}
