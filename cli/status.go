package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// statusOptions are `status`'s.
type statusOptions struct {
	*env
	JSON bool
}

func newStatusCmd(e *env, runF func(*statusOptions) error) *cobra.Command {
	o := &statusOptions{env: e}
	c := &cobra.Command{
		Use:   "status",
		Short: "Counts per state, and paused projects",
		Example: `  buildstation status
  buildstation status --json | jq .tasks.blocked`,
		Args: positional(0, 0),
		RunE: runE(o, nil, runF, statusRun),
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the counts as a JSON object")
	return c
}

func statusRun(o *statusOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Status, error) { return c.Status(o.ctx) }, o.print)
}

func (o *statusOptions) print(st supervisor.Status) error {
	e := o.env
	fillStatus(&st)
	if o.JSON {
		return printJSON(e.stdout, st)
	}
	if st.Board != nil && !st.Board.Reachable {
		// The board's counts are unknown: say what is known.
		fmt.Fprintln(e.stdout, boardAway(st.Board))
		fmt.Fprintf(e.stdout, "this station: working %d · reviewing %d · idle %d\n", st.Working, st.Reviewing, st.Idle)
		phoneAway(e, st.Phone)
		return nil
	}
	fmt.Fprintf(e.stdout, "working %d · reviewing %d · idle %d · blocked %d · todo %d · done %d\n",
		st.Working, st.Reviewing, st.Idle, st.Blocked, st.Tasks[supervisor.TaskTodo], st.Tasks[supervisor.TaskDone])
	if st.Board != nil && st.Board.Queued > 0 {
		fmt.Fprintf(e.stdout, "delivering %d queued transitions to the shared board\n", st.Board.Queued)
	}
	for _, name := range slices.Sorted(maps.Keys(st.Paused)) {
		line := "paused: " + textsafe.Line(name)
		if r := strings.TrimSpace(textsafe.Line(st.Paused[name])); r != "" {
			line += " (" + r + ")"
		}
		fmt.Fprintln(e.stdout, line)
	}
	phoneAway(e, st.Phone)
	for _, w := range st.Warnings {
		fmt.Fprintln(e.stdout, "warning: "+textsafe.Line(w))
	}
	for _, l := range sourceLines(st.Sources) {
		fmt.Fprintln(e.stdout, l)
	}
	if len(st.NoGate) > 0 {
		names := make([]string, len(st.NoGate))
		for i, n := range st.NoGate {
			names[i] = textsafe.Line(n)
		}
		fmt.Fprintf(e.stdout, "no gate: %s (done is the agent's word alone; set gate = \"make test\" in config.toml to check it)\n", strings.Join(names, ", "))
	}
	return nil
}

// boardAway is the line that says a shared board does not answer:
// "board unreachable since 12:03:10, retrying (3 transitions queued)".
func boardAway(l *supervisor.BoardLink) string { return l.Away() }

// phoneAway says, in one line, that the phone's service does not take
// notices: "Phone: ntfy.example not answering since 03:12 — retrying".
func phoneAway(e *env, l *supervisor.PhoneLink) {
	if l == nil {
		return
	}
	if away := l.Away(); away != "" {
		fmt.Fprintln(e.stdout, textsafe.Line(away))
	}
}

// fillStatus gives every task column a count, zero included, so scripts can
// read st.tasks.done without checking it exists.
func fillStatus(st *supervisor.Status) {
	if st.Tasks == nil {
		st.Tasks = map[supervisor.TaskState]int{}
	}
	for _, s := range supervisor.TaskStates {
		st.Tasks[s] += 0
	}
	if st.Sessions == nil {
		st.Sessions = map[string]int{}
	}
}
