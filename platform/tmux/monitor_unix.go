//go:build unix

package tmux

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// diedChannel is the wait-for channel the server's pane-died hook unlocks
// (diedHook): one channel for every pane, so one parked `tmux wait-for -L`
// hears of every death. It is used as a lock, not as a signal: tmux keeps
// one pending signal, and a second one before a waiter parks cancels the
// first (the channel is dropped), so two deaths while the waiter looked
// were lost (TestQuickExitsSeenWithoutPolling). The waiter holds the lock
// while it looks and parks asking for it again; a death's unlock hands it
// over, or, while the waiter looks, leaves it free so that its next ask
// returns at once; further unlocks meanwhile fail harmlessly.
const diedChannel = "bs-deaths"

// diedHook is the global pane-died hook the monitor sets on its server
// (its own server: the global hook concerns only the station's windows).
// The history limit and the quiet status timer (quietStatus) are set again
// too, for a server an older station started.
var diedHook = append([]string{"set-hook", "-g", "pane-died", "wait-for -U " + diedChannel,
	";", "set-option", "-g", "history-limit", strconv.Itoa(historyLimit), ";"}, quietStatus...)

// monitor learns of every agent's exit for one spawner, whatever the
// number of sessions, without a per-session poll, parked client or
// subscription: the server's pane-died hook unlocks one wait-for channel
// that one parked `tmux wait-for` waits on, after which one list-panes
// finds the dead; one tmux control-mode client (tmux -C) on the station's
// server, with its pane output turned off (output arrives through each
// pane's pipe), reports a closed window through %window-close and carries
// the station's commands. A line names the pane or window; the monitor
// pokes the session's watcher, which looks at the pane once. Idle, nothing
// runs: tmux evaluates nothing per pane on a tick (a control-mode
// subscription did, once a second for every pane: measured 0.4% of a core
// at 100 sessions).
//
// Where control mode cannot run (a tmux older than 3.2 refuses attach's
// flags), one `list-panes -a` per Spawner.WaitCheck covers every session
// at once.
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
		// It ended before its first command was answered: attach
		// refused (a tmux before 3.2 has no -f) or the session is gone.
		res = errNoControl
	}
	return res
}

// serveControl readies the control client c (the pane-died hook, the
// parked waiter) and keeps it until it ends or no pane is left to watch;
// it returns why it ended.
func (m *monitor) serveControl(c *ctlClient, in io.Closer, ended <-chan error) error {
	// The hook may be missing on a server an older station started. An
	// error means a tmux that cannot serve us in control mode.
	ready := make(chan error, 1)
	go func() {
		_, err := c.run(context.Background(), diedHook)
		ready <- err
	}()
	// The death waiter runs while the client does. It is let go by
	// signalling its channel, not killed: tmux was seen to lose a later
	// signal meant for another station's waiter after a waiter was killed.
	var waiter *deathWaiter
	defer func() {
		if waiter != nil {
			waiter.stop(c)
		}
	}()
	for {
		select {
		case err := <-ready:
			if err != nil {
				in.Close()
				<-ended
				if errors.Is(err, errCtlGone) {
					return err
				}
				return errNoControl
			}
			m.mu.Lock()
			m.ctl = c
			m.mu.Unlock()
			waiter = m.startWaiter()
		case res := <-ended:
			return res
		case <-m.kick:
			m.mu.Lock()
			empty := len(m.panes) == 0
			m.mu.Unlock()
			if empty {
				// The waiter goes first, let go through this client
				// while it still runs: a waiter killed instead (its
				// stop's fallback once the client is gone) makes tmux
				// lose the next signal on the channel, the next
				// session's death (TestQuickExitsSeenWithoutPolling).
				if waiter != nil {
					waiter.stop(c)
					waiter = nil
				}
				in.Close() // a control client ends at the end of its input
				return <-ended
			}
		}
	}
}

// deathWaiter is the parked `tmux wait-for` on diedChannel and the
// goroutine that runs it (see waitDeaths).
type deathWaiter struct {
	m       *monitor
	stopped atomic.Bool
	forced  atomic.Bool // stop could not let it go: kill its client
	done    chan struct{}
	cmd     atomic.Pointer[exec.Cmd]
}

func (m *monitor) startWaiter() *deathWaiter {
	w := &deathWaiter{m: m, done: make(chan struct{})}
	go w.run()
	return w
}

// run parks one `tmux wait-for -L` on diedChannel and, each time the
// pane-died hook unlocks it, finds the dead panes with one list-panes and
// pokes their sessions. It looks once at the start too: a death while no
// client ran.
func (w *deathWaiter) run() {
	defer close(w.done)
	bin, err := tmuxPath()
	if err != nil {
		return
	}
	for !w.stopped.Load() {
		w.m.scanOnce(context.Background())
		cmd := exec.Command(bin, "-S", w.m.sp.sock, "wait-for", "-L", diedChannel)
		cmd.Env = clientEnv()
		if err := cmd.Start(); err != nil {
			return
		}
		w.cmd.Store(cmd)
		// stop may have come during the look above: its unlock makes
		// this ask return at once; if it could not send one, its kill
		// was meant for the last client and this one would park for
		// good. (A client killed while it waits is what tmux loses the
		// next unlock to, so it is killed only then.)
		if w.forced.Load() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		for waiting := true; waiting; {
			t := time.NewTimer(w.m.interval() * safetyScans())
			select {
			case err := <-exited:
				t.Stop()
				if err != nil {
					return // the server went: the control client ends too
				}
				waiting = false
			case <-t.C:
				// A signal was seen lost under load (a pane died
				// and the waiter slept on): look anyway, now and
				// then.
				w.m.scanOnce(context.Background())
			}
		}
	}
}

// safetyScans is how many fallback intervals (Spawner.WaitCheck) pass
// between the waiter's own looks at every pane, whatever the number of
// sessions: one list-panes per 2 minutes by default where the kernel
// reports each agent's exit (watchExit), per 20 s elsewhere. The look is
// what settles a death tmux reports to no one: tmux 3.3 was seen to leave
// an exited agent unreaped, a dead pane without a status, for which the
// pane-died hook never runs (about half the runs of a four-exit test on a
// loaded machine). At 100 idle sessions the server's whole idle cost was
// about 12 ms of CPU a minute, mostly these looks (the server formatting
// every pane, the station reading the answer); its status timer for the
// control client is the rest (5 ms a minute at 300 windows).
func safetyScans() time.Duration {
	if exitWatchable {
		return 60
	}
	return 10
}

// stop lets the waiter go: an unlock of its channel through the control
// client c, which hands it the lock it waits for (or, while it looks,
// makes its next ask return at once), or, if that does not end it, a kill.
func (w *deathWaiter) stop(c *ctlClient) {
	w.stopped.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	// An error may only say the channel was not locked: the waiter's
	// next ask returns at once then.
	if _, err := c.run(ctx, []string{"wait-for", "-U", diedChannel}); !errors.Is(err, errCtlGone) {
		select {
		case <-w.done:
			return
		case <-ctx.Done():
		}
	}
	w.forced.Store(true)
	if cmd := w.cmd.Load(); cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
	<-w.done
}

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

// scan is the fallback for a tmux without control mode: one list-panes
// for every session per interval.
func (m *monitor) scan() {
	t := time.NewTicker(m.interval())
	defer t.Stop()
	for !m.idle() {
		select {
		case <-t.C:
		case <-m.kick:
			continue
		}
		m.scanOnce(context.Background())
	}
}

// scanOnce pokes the sessions whose pane died or went, found with one
// list-panes for every session.
func (m *monitor) scanOnce(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	out, err := m.sp.do(ctx, "list-panes", "-a", "-F", "#{pane_id} #{pane_dead}")
	cancel()
	if err != nil {
		m.pokeAll()
		return
	}
	live := map[string]bool{}
	for line := range strings.SplitSeq(out, "\n") {
		if id, dead, ok := strings.Cut(line, " "); ok && dead != "1" {
			live[id] = true
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, p := range m.panes {
		if !live[id] {
			p.poke()
		}
	}
}
