//go:build linux

package fault

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/platform/proctree"
)

// TestBlockLeavesNoProcess blocks (by the watchdog) a session whose agent
// left grandchildren behind, one in a new session of its own (setsid), and
// checks that none of them runs afterwards. The pids are recorded before
// the block by the session's environment tag, which every descendant
// inherits whatever it does to its parentage or process group.
//
// Not parallel: every home's first session is "t1.1", and a station that
// marks processes by session id alone would end another test's agents.
func TestBlockLeavesNoProcess(t *testing.T) {
	for _, tt := range []struct {
		name  string
		agent string
		want  int // processes the agent's tree holds once it is ready
	}{
		{
			// fake-agent → child → grandchild, plus a setsid sleep whose
			// parent (the agent) is still alive at the block.
			name:  "setsid grandchild of a live parent",
			agent: `setsid sleep 301 & exec buildstation fake-agent "grandchild-sleep 303s; print ready; wedge"`,
			want:  4,
		},
		{
			// The same, plus a setsid sleep whose parent shell has already
			// exited: it is an orphan in a session and group of its own,
			// reparented away from the agent's tree ("daemonised").
			name:  "orphaned setsid grandchild",
			agent: `sh -c 'setsid sleep 302 >/dev/null 2>&1 &'; setsid sleep 301 & exec buildstation fake-agent "grandchild-sleep 303s; print ready; wedge"`,
			want:  5,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := rig.WriteConfig(t, fmt.Sprintf(`[[projects]]
name = "p"
path = %q
command = ["sh", "-c", %q]
idle_window = "2s"
block_window = "2s"
`, t.TempDir(), tt.agent))
			s := rig.StartOn(t, home)
			id := strings.TrimSpace(s.Must("task", "add", "--project", "p", "--title", "tree"))
			sid := id + ".1"
			// Wait for the whole tree to be up, and record it.
			var tree []proctree.Proc
			rig.Eventually(t, 10*time.Second, func() error {
				if tree = tagged(home, sid); len(tree) < tt.want {
					return fmt.Errorf("%d processes, want %d", len(tree), tt.want)
				}
				return nil
			}, "the agent's whole tree")
			var desc []string
			for _, p := range tree {
				desc = append(desc, fmt.Sprintf("%d (ppid %d) %s", p.PID, p.PPID, cmdline(p.PID)))
			}
			t.Logf("session %s tree before the block:\n  %s", sid, strings.Join(desc, "\n  "))

			got := s.WaitState(id, "blocked", 20*time.Second)
			if !strings.HasPrefix(got.Reason, "watchdog:") {
				t.Fatalf("blocked for %q, want the watchdog", got.Reason)
			}
			// The session is over once it leaves the list: its Stop has
			// returned (grace, then kill of the tree).
			rig.Eventually(t, 15*time.Second, func() bool {
				ss, err := s.Client().Sessions(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range ss {
					if x.ID == sid {
						return false
					}
				}
				return true
			}, "session "+sid+" gone from the list after its block")
			// Give the kernel a moment to tear down what was killed.
			err := testwait.Poll(3*time.Second, "the session's tree gone after the block", func() error {
				var left []string
				for _, p := range tree {
					if rig.Running(p) {
						left = append(left, fmt.Sprintf("%d (ppid now %d) %s", p.PID, mustProc(p.PID).PPID, cmdline(p.PID)))
					}
				}
				if len(left) > 0 {
					return fmt.Errorf("%d of the session's %d processes still run:\n  %s", len(left), len(tree), strings.Join(left, "\n  "))
				}
				return nil
			})
			for _, p := range tree {
				if rig.Running(p) {
					t.Cleanup(func() { killPid(p) })
				}
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

func mustProc(pid int) proctree.Proc {
	p, _ := rig.Process(pid)
	return p
}

// TestEndingASessionSparesOtherStations runs two stations on two homes,
// each with its first task's session (both "t1.1"), and cancels one: the
// other station's agent must live on. Session ids repeat across homes (a
// user's board and the demo's, parallel tests), so whatever marks a
// session's processes for the final kill must be unique on the machine.
func TestEndingASessionSparesOtherStations(t *testing.T) {
	cfg := func() string {
		return fmt.Sprintf("[[projects]]\nname = \"p\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\", \"print ready; wedge\"]\nidle_window = \"1m\"\nblock_window = \"1m\"\n", t.TempDir())
	}
	a, b := rig.StartOn(t, rig.WriteConfig(t, cfg())), rig.StartOn(t, rig.WriteConfig(t, cfg()))
	ida := strings.TrimSpace(a.Must("task", "add", "--project", "p", "--title", "a"))
	idb := strings.TrimSpace(b.Must("task", "add", "--project", "p", "--title", "b"))
	if ida != idb {
		t.Fatalf("the two boards' first tasks are %s and %s; the test needs one id", ida, idb)
	}
	a.WaitState(ida, "working", 10*time.Second)
	b.WaitState(idb, "working", 10*time.Second)
	var treeB []proctree.Proc
	rig.Eventually(t, 10*time.Second, func() bool {
		treeB = tagged(b.Home, idb+".1")
		return len(treeB) > 0
	}, "station b's agent")
	a.Must("task", "cancel", ida)
	// Wait for a's session to be ended (its Stop has run).
	rig.Eventually(t, 15*time.Second, func() bool {
		ss, err := a.Client().Sessions(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return len(ss) == 0
	}, "station a's session to end after its task was cancelled")
	time.Sleep(500 * time.Millisecond)
	for _, p := range treeB {
		if !rig.Running(p) {
			t.Errorf("ending session %s.1 on station a killed station b's process %d of its own session %s.1", ida, p.PID, idb)
		}
	}
	if got := b.Task(idb); got.State != "working" {
		t.Errorf("station b's task %s is %s (%s) after station a ended its own %s", idb, got.State, got.Reason, ida)
	}
}
