package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The verbs that answer what a session's agent asks a person. Only a person
// may: they need the station's token (a session's own is refused), and the
// station refuses them from inside any session.

func (e *env) sessionAllowCmd() *cobra.Command {
	return e.decideCmd("allow", "Allow once the tool call a session waits on",
		`Allow once the tool call a session's agent asks permission for (shown by
"session ls" under DOING). The decision is in the task's history with
who made it. Nothing is ever allowed without a person: a request nobody
answers in time shows in the agent's own dialog instead.`,
		`  buildstation session allow t7
  buildstation session allow t7.1 --note "fine, but only this once"`,
		"a note kept in the task's history",
		func(c *client.Client, id, note string) error { return c.Allow(e.ctx, id, note) })
}

func (e *env) sessionDenyCmd() *cobra.Command {
	return e.decideCmd("deny", "Deny the tool call (or question) a session waits on",
		`Deny the tool call a session's agent asks permission for, or refuse its
question. The agent reads the denial, with the note, and goes on without it.`,
		`  buildstation session deny t7
  buildstation session deny t7 --note "do not publish; open a PR instead"`,
		"why, for the agent to read",
		func(c *client.Client, id, note string) error { return c.Deny(e.ctx, id, note) })
}

// decideCmd is `session allow` or `session deny`: a session and a note.
func (e *env) decideCmd(verb, short, long, example, noteHelp string, decide func(c *client.Client, id, note string) error) *cobra.Command {
	var note string
	c := &cobra.Command{
		Use:               verb + " ID [--note TEXT]",
		Short:             short,
		Long:              long,
		Example:           example,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeSessions,
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			return decide(c, args[0], note)
		},
	}
	c.Flags().StringVar(&note, "note", "", noteHelp)
	return c
}

func (e *env) sessionAnswerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "answer ID TEXT...",
		Short: "Answer the question a session's agent asks",
		Long: `Answer the question a session's agent asks a person (Claude Code's
AskUserQuestion): one of the options "session ls" shows, or any text.
Words are joined with spaces.`,
		Example: `  buildstation session answer t7 blue
  buildstation session answer t7 "use the staging database"`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeSessions,
		RunE: func(_ *cobra.Command, args []string) error {
			text := strings.TrimSpace(strings.Join(args[1:], " "))
			if text == "" {
				return usagef("session answer needs the answer's text")
			}
			c, err := e.client()
			if err != nil {
				return err
			}
			return c.Answer(e.ctx, args[0], text)
		},
	}
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
