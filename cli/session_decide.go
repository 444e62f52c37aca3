package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/buildstation/buildstation/internal/textsafe"
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

// sessionDecideOptions are `session allow`'s, `session deny`'s and
// `session answer`'s: a session, the request and a note (the answer's
// text for answer).
type sessionDecideOptions struct {
	*env
	Verb              string // allow, deny or answer
	ID, Request, Text string
	// decide is the client's verb: (*client.Client).Allow, Deny or Answer.
	decide func(c *client.Client, ctx context.Context, id, request, text string) error
}

// newDecideCmd is `session allow` or `session deny`: a session, the
// request and a note.
func newDecideCmd(e *env, runF func(*sessionDecideOptions) error, o *sessionDecideOptions, short, long, example, noteHelp string) *cobra.Command {
	o.env = e
	c := &cobra.Command{
		Use:               o.Verb + " ID [--request REQUEST] [--note TEXT]",
		Short:             short,
		Long:              long,
		Example:           example,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeSessions,
		RunE:              runE(o, firstArg(&o.ID), runF, sessionDecideRun),
	}
	c.Flags().StringVar(&o.Text, "note", "", noteHelp)
	c.Flags().StringVar(&o.Request, "request", "", "the id of the request you decide (session ls shows it); refused if the session asks something else now")
	return c
}

// sessionDecideRun binds the decision to a request (requestToDecide) and
// makes it.
func sessionDecideRun(o *sessionDecideOptions) error {
	c, err := o.client()
	if err != nil {
		return err
	}
	request, err := o.requestToDecide(c, o.Verb, o.ID, o.Request)
	if err != nil {
		return err
	}
	return o.decide(c, o.ctx, o.ID, request, o.Text)
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
