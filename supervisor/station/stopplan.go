package station

import (
	"fmt"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// StopPlan says what stopping the station now does to its sessions, in one
// sentence for the person who pressed Ctrl-C: sessions of a backend that
// outlives the station (tmux) are left running for the next station to
// adopt; the others are ended, their tasks blocked to be requeued.
func (ct *Control) StopPlan() string {
	var ending, leaving []string
	for _, s := range ct.st.reg.live() {
		id := s.spec.ID
		if _, survives := s.proc.(supervisor.Handled); survives {
			leaving = append(leaving, id)
		} else {
			ending = append(ending, id)
		}
	}
	slices.Sort(ending)
	slices.Sort(leaving)
	var parts []string
	if len(ending) > 0 {
		parts = append(parts, fmt.Sprintf("ending %s (%s; their tasks are blocked: requeue them to resume from their last green commit)",
			count(len(ending), "session"), strings.Join(ending, ", ")))
	}
	if len(leaving) > 0 {
		parts = append(parts, fmt.Sprintf("leaving %s running in tmux (%s) for the next station to adopt",
			count(len(leaving), "session"), strings.Join(leaving, ", ")))
	}
	if len(parts) == 0 {
		return "stopping the station; no sessions are running"
	}
	return "stopping the station: " + strings.Join(parts, "; ")
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
