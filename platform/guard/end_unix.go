//go:build unix

package guard

import (
	"fmt"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/platform/treekill"
)

// ident is its start time where Linux gives it, else its parent and name.
func ident(all map[int]proctree.Proc, pid int) string {
	p, ok := all[pid]
	if !ok || p.Zombie() {
		return ""
	}
	if p.StartTime != 0 {
		return fmt.Sprintf("start %d", p.StartTime)
	}
	return fmt.Sprintf("parent %d %s", p.PPID, p.Comm)
}

// EndSession ends s as the station's fence does (platform/treekill): its
// leader's whole tree and every process carrying its marker, when the
// leader is still the process the station reported; else the marked
// processes alone (a pid reused since must not be signalled).
func EndSession(s Session, grace time.Duration) error {
	all, _ := proctree.Current()
	if s.Leader > 0 && s.Ident != "" && ident(all, s.Leader) == s.Ident {
		stop := make(chan struct{})
		defer close(stop)
		return treekill.Tree{Leader: s.Leader, Marker: s.Marker}.Stop(grace, gone(s.Leader, s.Ident, stop))
	}
	return treekill.EndMarked(s.Marker, grace)
}

// gone closes its channel once process pid (known by ident) has exited:
// the guard is not its parent and cannot wait for it, so it looks.
func gone(pid int, id string, stop <-chan struct{}) <-chan struct{} {
	out := make(chan struct{})
	go func() {
		defer close(out)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for Ident(pid) == id {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return out
}
