package cli

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
)

// sessionLsOptions are `session ls`'s.
type sessionLsOptions struct {
	*env
	JSON bool
}

func init() { subcommand("session", newSessionLsCmd) }

func newSessionLsCmd(e *env, runF func(*sessionLsOptions) error) *cobra.Command {
	o := &sessionLsOptions{env: e}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List live sessions: state, how long silent, what the watchdog does next",
		Example: `  buildstation session ls
  buildstation session ls --json | jq -r '.[] | "\(.id) \(.state)"'`,
		Args: positional(0, 0),
		RunE: runE(o, nil, runF, sessionLsRun),
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array")
	return c
}

func sessionLsRun(o *sessionLsOptions) error {
	c, err := o.client()
	if err != nil {
		return err
	}
	list, err := c.Sessions(o.ctx)
	if err != nil {
		return err
	}
	// The other stations' sessions come from the shared board: when it
	// does not answer they are missing, and the list says so.
	if st, err := c.Status(o.ctx); err == nil && st.Board != nil && !st.Board.Reachable {
		fmt.Fprintln(o.stderr, boardAway(st.Board)+"; other stations' sessions are not listed")
	}
	if o.JSON {
		return printJSONList(o.stdout, list)
	}
	// A shared board's sessions run on several stations: a column says
	// where each runs (its console is on that machine).
	shared := slices.ContainsFunc(list, func(s supervisor.SessionInfo) bool { return s.Station != "" })
	header := []string{"ID", "TASK", "STATE", "PID", "SILENT FOR", "NEXT", "COST", "DOING"}
	if shared {
		header = append(header, "STATION")
	}
	t := newTable(o.stdout, header...)
	for _, s := range list {
		row := []string{s.ID, s.TaskID, s.State.String(), strconv.Itoa(s.PID), ago(s.LastOutputAt), next(s), costCell(s.Usage), doing(s)}
		if shared {
			row = append(row, s.Station)
		}
		t.row(row...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	return o.printRequests(list)
}

// printRequests shows every request waiting on a person whole, below the
// table (whose cell is one line), with the id a decision names: what a
// person allows is all of what runs, never a clipped line.
func (e *env) printRequests(list []supervisor.SessionInfo) error {
	for _, s := range list {
		w := s.WaitingOn
		if w == nil || w.ID == "" {
			continue
		}
		verbs := "allow|deny"
		if w.Kind == supervisor.AskQuestion {
			verbs = "answer|deny"
		}
		if _, err := fmt.Fprintf(e.stdout, "\n%s asks (request %s):\n%s\n  decide: buildstation session %s %s --request %s\n",
			s.ID, w.ID, indentWrapped(w.Line(), 76), verbs, s.ID, w.ID); err != nil {
			return err
		}
	}
	return nil
}

// next is what the watchdog does next and when: "nudge in 1m48s".
func next(s supervisor.SessionInfo) string {
	if s.NextAction == "" || s.NextAt == nil {
		return "-"
	}
	return s.NextAction + " in " + roundDur(s.NextAt.Sub(now()))
}

// doing is what a session does, as one cell: the request it waits on,
// else its activity.
func doing(s supervisor.SessionInfo) string {
	if w := s.WaitingOn; w != nil {
		return fmt.Sprintf("asks %s", w.Line())
	}
	if s.Activity != "" {
		return s.Activity
	}
	return "-"
}

// costCell is a session's cost and context use: "$1.23 · 41% ctx".
func costCell(u *supervisor.Usage) string {
	if u == nil {
		return "-"
	}
	s := u.Cost()
	if u.ContextPct > 0 {
		s += fmt.Sprintf(" · %.0f%% ctx", u.ContextPct)
	}
	return s
}
