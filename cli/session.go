package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
)

func (e *env) sessionCmd() *cobra.Command {
	return group("session", "List live sessions, attach to one, type into it, or answer what it asks",
		"A session is one agent run on one task (ids look like t2.1: task t2, attempt 1;\nt2.1.review for its review). Every session command also takes a task id and\npicks that task's live session.",
		"  buildstation session ls\n  buildstation session attach t2\n  buildstation session send t2 \"please commit and report\"\n  buildstation session allow t2",
		e.sessionLsCmd(), e.sessionAttachCmd(), e.sessionSendCmd(),
		e.sessionAllowCmd(), e.sessionDenyCmd(), e.sessionAnswerCmd())
}

func (e *env) sessionLsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "ls",
		Short: "List live sessions: state, how long silent, what the watchdog does next",
		Example: `  buildstation session ls
  buildstation session ls --json | jq -r '.[] | "\(.id) \(.state)"'`,
		Args: positional(0, 0),
		RunE: func(*cobra.Command, []string) error { return e.sessionLs(asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return c
}

func (e *env) sessionLs(asJSON bool) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	list, err := c.Sessions(e.ctx)
	if err != nil {
		return err
	}
	// The other stations' sessions come from the shared board: when it
	// does not answer they are missing, and the list says so.
	if st, err := c.Status(e.ctx); err == nil && st.Board != nil && !st.Board.Reachable {
		fmt.Fprintln(e.stderr, boardAway(st.Board)+"; other stations' sessions are not listed")
	}
	if asJSON {
		if list == nil {
			list = []supervisor.SessionInfo{}
		}
		return printJSON(e.stdout, list)
	}
	// A shared board's sessions run on several stations: a column says
	// where each runs (its console is on that machine).
	shared := slices.ContainsFunc(list, func(s supervisor.SessionInfo) bool { return s.Station != "" })
	header := []string{"ID", "TASK", "STATE", "PID", "SILENT FOR", "NEXT", "COST", "DOING"}
	if shared {
		header = append(header, "STATION")
	}
	t := newTable(e.stdout, header...)
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
	return e.printRequests(list)
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

func (e *env) sessionSendCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "send ID TEXT...",
		Short: "Type TEXT into a session, then Enter",
		Long: `Type TEXT into a session, then Enter as a separate keystroke (an agent's TUI
takes one fast burst as a paste and would not submit it). Words are joined
with spaces; put -- before text that starts with a dash.`,
		Example: `  buildstation session send t2.1 "the tests need PostgreSQL: run make pg first"
  buildstation session send t2 -- --help`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeSessions,
		RunE: func(_ *cobra.Command, args []string) error {
			text := strings.Join(args[1:], " ")
			if strings.TrimSpace(text) == "" {
				return usagef("session send needs text to type")
			}
			c, err := e.client()
			if err != nil {
				return err
			}
			return c.Send(e.ctx, args[0], text)
		},
	}
}
