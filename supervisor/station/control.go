package station

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// Control is the station as a whole: its status, the agent CLIs it can
// run, its config's reload, and a stop asked through the API.
type Control struct{ st *Station }

// Status counts tasks per column and sessions per state.
//
// On a shared board that does not answer, status degrades instead of
// failing: it counts this station's own sessions, leaves the board's
// counts out, and Board says since when the board is away and how many
// writes wait for it.
func (ct *Control) Status(ctx context.Context) (supervisor.Status, error) {
	s := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}}
	for _, ts := range supervisor.TaskStates {
		s.Tasks[ts] = 0
	}
	if _, shared := ct.st.Shared.shared(); shared {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ct.st.host.writeTimeout())
		defer cancel()
	}
	err := ct.countTasks(ctx, &s)
	if err == nil {
		var paused map[string]string
		if paused, err = ct.st.board.Paused(ctx); err == nil && len(paused) > 0 {
			s.Paused = paused
		}
	}
	if err != nil && unreachable(err) && ct.st.Shared.Link() != nil {
		ct.st.writes.link.down(err)
		down := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}, Board: ct.st.Shared.Link(), Phone: ct.st.Phone.phoneLink()}
		ct.countSessions(&down, ct.ownSessions())
		return down, nil
	}
	if err != nil {
		return supervisor.Status{}, fmt.Errorf("status: %w", err)
	}
	ct.countSessions(&s, ct.st.Sessions.Sessions())
	s.Blocked = s.Tasks[supervisor.TaskBlocked]
	s.Board = ct.st.Shared.Link()
	if ct.st.opt.Sources != nil {
		s.Sources = ct.st.opt.Sources()
	}
	s.Warnings = ct.st.opt.Warnings
	if w := ct.configWarning(); w != "" {
		s.Warnings = append(slices.Clone(s.Warnings), w)
	}
	if ws := ct.st.branches.warnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	if ws := ct.st.Projects.setupWarnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	s.Phone = ct.st.Phone.phoneLink()
	for _, p := range ct.st.Config().Projects {
		if p.Gate == "" {
			s.NoGate = append(s.NoGate, p.Name)
		}
	}
	return s, nil
}

// countTasks counts the board's tasks per column into s.
func (ct *Control) countTasks(ctx context.Context, s *supervisor.Status) error {
	if c, ok := ct.st.board.(supervisor.TaskCounter); ok {
		n, err := c.CountTasks(ctx)
		if err != nil {
			return err
		}
		for k, v := range n {
			s.Tasks[k] = v
		}
		return nil
	}
	tasks, err := ct.st.board.Tasks(ctx, supervisor.TaskFilter{})
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s.Tasks[t.State]++
	}
	return nil
}

// countSessions counts list into s by state.
func (ct *Control) countSessions(s *supervisor.Status, list []supervisor.SessionInfo) {
	for i := supervisor.SessStarting; i < supervisor.SessEnded; i++ {
		s.Sessions[i.String()] = 0
	}
	for _, si := range list {
		s.Sessions[si.State.String()]++
		switch si.State.Group() {
		case supervisor.GroupWorking:
			s.Working++
		case supervisor.GroupReviewing:
			s.Reviewing++
		case supervisor.GroupIdle:
			s.Idle++
		}
	}
	ct.st.costs.meterStatus(s, list)
}

// ownSessions lists this station's live sessions only.
func (ct *Control) ownSessions() []supervisor.SessionInfo {
	live := ct.st.liveSessions()
	out := make([]supervisor.SessionInfo, 0, len(live))
	for _, s := range live {
		out = append(out, s.Info())
	}
	return out
}

// AgentCLIs lists the agent CLIs found on the station's machine, for the
// dashboard's Add project; none when the wiring gave no finder.
func (ct *Control) AgentCLIs(ctx context.Context) []supervisor.AgentCLI {
	if ct.st.opt.Agents == nil {
		return nil
	}
	return ct.st.opt.Agents.Installed(ctx)
}

// RequestStop asks the station's process to stop as a first Ctrl-C does:
// drain, then stop. A service manager that cannot signal the station
// (Windows' logon task, whose only stop is to terminate it) asks this
// first. Only a person may: a call from inside a session is refused. It
// says what happens now.
func (ct *Control) RequestStop(ctx context.Context) (string, error) {
	if sid, ok := supervisor.Origin(ctx); ok {
		return "", supervisor.Conflictf("session %s may not stop the station; only a person may, from outside any session", sid)
	}
	ct.st.stopOnce.Do(func() { close(ct.st.stopAsked) })
	ending := ct.st.endingOnStop()
	if len(ending) == 0 {
		return "the station stops now: no session needs time to finish", nil
	}
	return fmt.Sprintf("the station drains, then stops: no new task starts; %s (%s) %s up to %s to finish",
		count(len(ending), "running session"), strings.Join(ending, ", "), plural(len(ending), "has", "have"), spoken(ct.st.Config().StopGrace)), nil
}
