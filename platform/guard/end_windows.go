package guard

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// ident is its parent and name: Windows' process table gives no start
// time.
func ident(all map[int]proctree.Proc, pid int) string {
	p, ok := all[pid]
	if !ok {
		return ""
	}
	return fmt.Sprintf("parent %d %s", p.PPID, p.Comm)
}

// EndSession ends s's leader and every process under it, when the leader
// is still the process the station reported. A station that holds the
// agent's Job Object holds a handle to it too, so its pid is not reused
// while the station lives; once the station has died, its Job Objects
// were closed and their processes killed already. There is no polite
// signal to a console program from outside its console: the tree is
// terminated.
func EndSession(s Session, _ time.Duration) error {
	all, err := proctree.Current()
	if err != nil {
		return fmt.Errorf("end session %s: %w", s.ID, err)
	}
	if s.Leader <= 0 || s.Ident == "" || ident(all, s.Leader) != s.Ident {
		return nil
	}
	var errs []error
	for _, pid := range append(proctree.DescendantsOf(all, s.Leader), s.Leader) {
		p, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			errs = append(errs, fmt.Errorf("kill %d: %w", pid, err))
		}
		p.Release()
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("end session %s: %w", s.ID, err)
	}
	return nil
}
