package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The verbs that answer what a session's agent asks a person. Only a person
// may: they need the station's token (a session's own is refused), and the
// station refuses them from inside any session.
//
// A decision is bound to the request it was made on (its id, waiting_on.id
// in session ls --json): an agent may withdraw a request a person read and
// put another in its place, and an Allow must never land on the second.
// With --request ID the station refuses the decision when the waiting
// request is no longer ID. Without it, at a terminal, the command shows the
// request waiting now, whole, asks the person to confirm, and binds the
// decision to that request; off a terminal (a script) an allow or an
// answer without --request is refused, since nobody saw what it would
// decide. A deny without --request denies whatever waits.

func (e *env) sessionAllowCmd() *cobra.Command {
	return e.decideCmd("allow", "Allow once the tool call a session waits on",
		`Allow once the tool call a session's agent asks permission for (shown by
"session ls" under DOING, whole below the table, with its request id). The
decision is in the task's history with who made it. Nothing is ever allowed
without a person: a request nobody answers in time shows in the agent's own
dialog instead.

--request names the request you read (its id, from "session ls"); if the
agent has asked something else since, nothing is allowed and the command
says "the request changed; look again". Without --request, at a terminal,
the request waiting now is shown whole and you confirm it; a script must
pass --request.`,
		`  buildstation session allow t7 --request 3f9a1c0b2d4e
  buildstation session allow t7.1 --request 3f9a1c0b2d4e --note "fine, but only this once"
  buildstation session allow t7     # at a terminal: shows the request, asks to confirm`,
		"a note kept in the task's history",
		func(c *client.Client, id, request, note string) error { return c.Allow(e.ctx, id, request, note) })
}

func (e *env) sessionDenyCmd() *cobra.Command {
	return e.decideCmd("deny", "Deny the tool call (or question) a session waits on",
		`Deny the tool call a session's agent asks permission for, or refuse its
question. The agent reads the denial, with the note, and goes on without it.
With --request, only that request is denied (a changed one is refused:
"the request changed; look again"); without it, whatever waits is denied.`,
		`  buildstation session deny t7
  buildstation session deny t7 --request 3f9a1c0b2d4e --note "do not publish; open a PR instead"`,
		"why, for the agent to read",
		func(c *client.Client, id, request, note string) error { return c.Deny(e.ctx, id, request, note) })
}

// decideCmd is `session allow` or `session deny`: a session, the request
// and a note.
func (e *env) decideCmd(verb, short, long, example, noteHelp string, decide func(c *client.Client, id, request, note string) error) *cobra.Command {
	var note, request string
	c := &cobra.Command{
		Use:               verb + " ID [--request REQUEST] [--note TEXT]",
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
			if request, err = e.requestToDecide(c, verb, args[0], request); err != nil {
				return err
			}
			return decide(c, args[0], request, note)
		},
	}
	c.Flags().StringVar(&note, "note", "", noteHelp)
	c.Flags().StringVar(&request, "request", "", "the id of the request you decide (session ls shows it); refused if the session asks something else now")
	return c
}

func (e *env) sessionAnswerCmd() *cobra.Command {
	var request string
	c := &cobra.Command{
		Use:   "answer ID [--request REQUEST] TEXT...",
		Short: "Answer the question a session's agent asks",
		Long: `Answer the question a session's agent asks a person (Claude Code's
AskUserQuestion): one of the options "session ls" shows, or any text.
Words are joined with spaces. --request names the question you read, as
for "session allow"; without it, at a terminal, the question is shown and
you confirm; a script must pass --request.`,
		Example: `  buildstation session answer t7 --request 3f9a1c0b2d4e blue
  buildstation session answer t7 --request 3f9a1c0b2d4e "use the staging database"`,
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
			if request, err = e.requestToDecide(c, "answer", args[0], request); err != nil {
				return err
			}
			return c.Answer(e.ctx, args[0], request, text)
		},
	}
	c.Flags().StringVar(&request, "request", "", "the id of the question you answer (session ls shows it); refused if the session asks something else now")
	return c
}

// requestToDecide is the request id a decision is bound to: request when
// given (the station checks it); else, at a terminal, the request waiting
// now, shown whole and confirmed by the person; else, for a deny, none
// (deny whatever waits). An allow or an answer from a script that names
// no request is refused: nobody saw what it would decide.
func (e *env) requestToDecide(c *client.Client, verb, id, request string) (string, error) {
	if request != "" {
		return request, nil
	}
	tty, isTTY := e.terminal()
	if !isTTY {
		if verb == "deny" {
			return "", nil
		}
		return "", usagef("session %s needs --request ID when not run at a terminal, so that what it decides is the request you read: session ls (or session ls --json, waiting_on.id) shows it", verb)
	}
	s, err := c.Session(e.ctx, id)
	if err != nil {
		return "", err
	}
	w := s.WaitingOn
	if w == nil {
		return "", fmt.Errorf("session %s waits on no request; if its agent shows a dialog in its console, answer it there (buildstation session attach %s)", s.ID, s.ID)
	}
	fmt.Fprintf(e.stderr, "session %s asks (request %s):\n%s\n", s.ID, w.ID, indentWrapped(w.Line(), 76))
	fmt.Fprintf(e.stderr, "%s this request? [y/N] ", verb)
	line, _ := bufio.NewReader(tty).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return "", fmt.Errorf("nothing decided; run it again to decide")
	}
	return w.ID, nil
}

// terminal is stdin when it is a terminal a person types at.
func (e *env) terminal() (*os.File, bool) {
	f, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, false
	}
	return f, true
}

// indentWrapped is a request's line as a decision view shows it: control
// characters and escape sequences made visible-safe, then wrapped at width
// and indented, never clipped — what a person allows is all of what runs.
func indentWrapped(s string, width int) string {
	s = textsafe.Line(s)
	var b strings.Builder
	r := []rune(s)
	for len(r) > 0 {
		n := min(width, len(r))
		b.WriteString("  ")
		b.WriteString(string(r[:n]))
		r = r[n:]
		if len(r) > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
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
