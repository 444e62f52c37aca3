//go:build unix

package tmux

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/internal/testsupport/typetest"
	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/supervisor"
)

// TestExitSeenWithoutPolling: with the fallback interval an hour long, an
// exit, a window killed by hand and a killed server are all seen at once:
// the monitor's control client reports them.
func TestExitSeenWithoutPolling(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	s.WaitCheck = time.Hour
	exits := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "read x; exit 4"}})
	killed := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sleep", "300"}})
	other := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sleep", "300"}})

	if _, err := exits.Write([]byte("go\r")); err != nil {
		t.Fatal(err)
	}
	if code, err := proctest.WaitCode(t, exits); code != 4 || err != nil {
		t.Errorf("Wait = %d, %v; want 4, nil", code, err)
	}
	id, _, _ := parseHandle(killed.(supervisor.Handled).Handle())
	if _, err := s.run(t.Context(), "kill-window", "-t", id); err != nil {
		t.Fatal(err)
	}
	if code, err := proctest.WaitCode(t, killed); code != -1 || err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("Wait of a window killed by hand = %d, %v; want -1 and gone", code, err)
	}
	killServer(s.Socket())
	if code, err := proctest.WaitCode(t, other); code != -1 || err == nil {
		t.Errorf("Wait after the server was killed = %d, %v; want -1 and an error", code, err)
	}
}

// TestExitSeenByScan: a tmux without control-mode subscriptions (before
// 3.2) is covered by one list-panes for all sessions.
func TestExitSeenByScan(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	s.noControl = true
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "read x; exit 5"}})
	q := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sleep", "300"}})
	if _, err := p.Write([]byte("go\r")); err != nil {
		t.Fatal(err)
	}
	if code, err := proctest.WaitCode(t, p); code != 5 || err != nil {
		t.Errorf("Wait = %d, %v; want 5, nil", code, err)
	}
	id, _, _ := parseHandle(q.(supervisor.Handled).Handle())
	if _, err := s.run(t.Context(), "kill-window", "-t", id); err != nil {
		t.Fatal(err)
	}
	if code, err := proctest.WaitCode(t, q); code != -1 || err == nil {
		t.Errorf("Wait of a window killed by hand = %d, %v; want -1 and an error", code, err)
	}
}

// TestOneClientForAllSessions: however many sessions run, the station
// keeps one tmux control client (the monitor's) and one parked wait-for
// client (pane deaths, unlocked by the pane-died hook), no client per
// session and no subscription that tmux evaluates for every pane each
// second; they go when the last session does.
func TestOneClientForAllSessions(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	var ps []supervisor.Proc
	for range 6 {
		ps = append(ps, proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sleep", "300"}}))
	}
	clients := func() []string {
		out, _ := exec.Command("ps", "-eo", "pid,args").Output()
		var got []string
		for line := range strings.SplitSeq(string(out), "\n") {
			if strings.Contains(line, "tmux -S "+s.Socket()) && !strings.Contains(line, "new-session") {
				got = append(got, strings.TrimSpace(line))
			}
		}
		return got
	}
	end := time.Now().Add(proctest.Deadline)
	testwait.Eventually(t, proctest.Deadline, func() error {
		c := clients()
		if len(c) != 2 || !slices.ContainsFunc(c, func(l string) bool { return strings.Contains(l, " -C ") }) ||
			!slices.ContainsFunc(c, func(l string) bool { return strings.Contains(l, " wait-for -L "+diedChannel) }) {
			return fmt.Errorf("clients:\n%s", strings.Join(c, "\n"))
		}
		return nil
	}, "one tmux control client and one wait-for client for 6 sessions")
	for _, p := range ps {
		_ = p.Stop(0)
		_ = p.Close()
	}
	testwait.Eventually(t, time.Until(end.Add(proctest.Deadline)), func() error {
		if c := clients(); len(c) > 0 {
			return fmt.Errorf("clients:\n%s", strings.Join(c, "\n"))
		}
		return nil
	}, "no tmux client after the last session ended")
	_ = os.Getpid()
}

// TestCommandsThroughControlClient: once the control client is up, typing
// (every printable character, UTF-8, ";" and quotes included), resizing
// and reading a pane's state go through it, with no tmux process each.
func TestCommandsThroughControlClient(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", typetest.Program}})
	out := proctest.Collect(p)
	testwait.Eventually(t, proctest.Deadline, func() bool { return s.mon.client() != nil }, "the control client to come up")
	before := s.execs.Load()
	lines := append(typetest.Lines(), `"quoted" 'single' $HOME #{pane_id} ~ {braces} \ back\slash`)
	for _, in := range lines {
		if _, err := p.Write([]byte(in + "\r")); err != nil {
			t.Fatal(err)
		}
		out.WaitFor(t, "hex:"+fmt.Sprintf("%x", in)+":end")
	}
	if err := p.Resize(90, 30); err != nil {
		t.Fatal(err)
	}
	if st, err := s.paneState(t.Context(), p.(*proc).w.pane); err != nil || st.dead || st.gone {
		t.Errorf("paneState = %+v, %v", st, err)
	}
	if n := s.execs.Load() - before; n != 0 {
		t.Errorf("%d tmux processes run for commands while the control client was up", n)
	}
}

// TestQuickExitsSeenWithoutPolling: agents that exit at once, one after
// the other (the monitor's client and waiter stop and start again between
// them), are each seen without the safety scan (the fallback interval is
// an hour): tmux was seen to lose one in four of them, a waiter killed
// losing the next unlock, or the agent left unreaped so the pane-died
// hook never ran (watchExit).
func TestQuickExitsSeenWithoutPolling(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	s.WaitCheck = time.Hour
	for i := range 4 {
		p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", fmt.Sprintf("echo one line; exit %d", i+1)}})
		t0 := time.Now()
		if code, err := proctest.WaitCode(t, p); code != i+1 || err != nil {
			t.Errorf("session %d: Wait = %d, %v; want %d, nil", i, code, err, i+1)
		}
		t.Logf("session %d ended after %s", i, time.Since(t0).Round(time.Millisecond))
		_ = p.Close()
	}
}

// TestServerSleepsWhileIdle: with sessions running quietly and the
// monitor's clients up, the tmux server does not wake at all, even where
// a person's tmux.conf redraws the status line every second: no status
// timer runs for the station's session (quietStatus), its control client
// included.
func TestServerSleepsWhileIdle(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	s.WaitCheck = time.Hour // no safety look within the test
	for range 3 {
		proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sleep", "300"}})
	}
	testwait.Eventually(t, proctest.Deadline, func() bool { return s.mon.client() != nil }, "the control client to come up")
	// A status bar that ticks each second, as many a tmux.conf has.
	if _, err := s.run(t.Context(), "set-option", "-g", "status-interval", "1"); err != nil {
		t.Fatal(err)
	}
	out, err := s.run(t.Context(), "display-message", "-p", "#{pid}")
	if err != nil {
		t.Fatal(err)
	}
	server := strings.TrimSpace(out)
	wakeups := func() int {
		b, err := os.ReadFile("/proc/" + server + "/status")
		if err != nil {
			t.Skipf("no /proc to count the server's wake-ups: %v", err)
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				return n
			}
		}
		t.Fatalf("no voluntary_ctxt_switches in /proc/%s/status", server)
		return 0
	}
	time.Sleep(time.Second) // the spawns' and the waiter's first looks end
	before := wakeups()
	time.Sleep(3 * time.Second)
	if n := wakeups() - before; n > 0 {
		t.Errorf("the idle tmux server woke %d times in 3 s; want none", n)
	}
}

// A window keeps historyLimit lines of scrollback, not tmux's default
// 2,000 or a person's tmux.conf: the scrollback is most of what a window
// costs the server (make bench's memory per added session), and the
// station keeps every line itself.
func TestWindowScrollbackIsBounded(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "i=0; while [ $i -lt 3000 ]; do echo line-$i; i=$((i+1)); done; sleep 300"}})
	id, _, _ := parseHandle(p.(supervisor.Handled).Handle())
	var n int
	testwait.Eventually(t, proctest.Deadline, func() bool {
		out, err := s.run(t.Context(), "capture-pane", "-p", "-S", "-", "-E", "-", "-t", id)
		if err != nil {
			t.Fatal(err)
		}
		n = strings.Count(strings.TrimRight(out, "\n"), "\n") + 1
		return strings.Contains(out, "line-2999")
	}, "the window to show its last line")
	if max := historyLimit + DefaultRows; n > max {
		t.Errorf("the window keeps %d lines; want at most %d (%d of scrollback and the screen)", n, max, historyLimit)
	}
}
