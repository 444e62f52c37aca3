package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

func (e *env) agentCmd() *cobra.Command {
	var summary, reason, notes string
	complete := &cobra.Command{Use: "complete --summary TEXT", Short: "Report the task done (it moves to review or done)",
		Example: `  buildstation agent complete --summary "Fixed the login race; added a test"`,
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.agentComplete(summary) }}
	complete.Flags().StringVar(&summary, "summary", "", "what was done, for the reviewer")
	block := &cobra.Command{Use: "block --reason TEXT", Short: "Report the task blocked on something only a person can do",
		Example: `  buildstation agent block --reason "needs an API key for the staging server"`,
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.agentBlock(reason) }}
	block.Flags().StringVar(&reason, "reason", "", "what a person must do to unblock the task")
	progress := &cobra.Command{Use: "progress TEXT...", Short: "Report progress (a sign of life the watchdog counts)",
		Example: `  buildstation agent progress "migrations done, running the test suite"`,
		Args:    positional(1, -1),
		RunE:    func(_ *cobra.Command, args []string) error { return e.agentProgress(args) }}
	status := &cobra.Command{Use: "status working|reviewing", Short: "Say whether the session is coding or reviewing",
		Example:   "  buildstation agent status reviewing",
		Args:      positional(1, 1),
		ValidArgs: []string{"working", "reviewing"},
		RunE:      func(_ *cobra.Command, args []string) error { return e.agentStatus(args) }}
	review := &cobra.Command{Use: "review approve|changes", Short: "Settle a review session: approve, or ask for changes",
		Example: `  buildstation agent review approve --notes "tests cover the race"
  buildstation agent review changes --notes "the error message must say what to do"`,
		Args:      positional(1, 1),
		ValidArgs: []string{"approve", "changes"},
		RunE:      func(_ *cobra.Command, args []string) error { return e.agentReview(args[0], notes) }}
	review.Flags().StringVar(&notes, "notes", "", "why; for changes, what must change")
	hook := &cobra.Command{Use: "hook", Short: "Forward an agent CLI's hook event (JSON on stdin); exits 1 if not taken",
		Long: `Forward one hook event of an agent CLI (Claude Code's SessionStart, Stop,
Notification, …) to the station: one JSON object on stdin. It never gets in
the agent's way: it prints nothing on stdout and answers within 5s. A report
the station did not take (busy, not answering) is tried 3 times; if it still
was not taken, or could not be sent, it exits 1 with one line on stderr
(never 2, which Claude Code reads as "block this tool call").`,
		Example:            `  echo '{"hook_event_name":"Stop"}' | buildstation agent hook`,
		DisableFlagParsing: true, // it must never exit 2 (a usage error), whatever it is given
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
				return c.Help()
			}
			return e.agentHook(args)
		}}
	return group("agent", "Report from inside a session (what agents and their hooks run)",
		"These run inside a session: they reach the station through BUILDSTATION_URL\nwith the session's own token (BUILDSTATION_TOKEN), which acts on its own\ntask only. Agents with the station's MCP tools may call those instead.",
		"  buildstation agent progress \"half the tests pass\"\n  buildstation agent complete --summary \"done: see the commits\"",
		complete, block, progress, status, review, hook)
}

// The agent verbs run inside a session: they reach the station through
// BUILDSTATION_URL and act with the session's own token.

func (e *env) agentComplete(summary string) error {
	if strings.TrimSpace(summary) == "" {
		return usagef("agent complete needs --summary saying what was done")
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	return e.retry("report the task done", func(ctx context.Context) error { return c.AgentComplete(ctx, summary) })
}

func (e *env) agentBlock(reason string) error {
	if strings.TrimSpace(reason) == "" {
		return usagef("agent block needs --reason saying what a person must do")
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	return e.retry("report the task blocked", func(ctx context.Context) error { return c.AgentBlock(ctx, reason) })
}

func (e *env) agentProgress(pos []string) error {
	msg := strings.Join(pos, " ")
	if strings.TrimSpace(msg) == "" {
		return usagef("agent progress needs a message")
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentProgress(e.ctx, msg)
}

func (e *env) agentStatus(pos []string) error {
	if pos[0] != "working" && pos[0] != "reviewing" {
		return usagef("unknown status %q; use working or reviewing", pos[0])
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentStatus(e.ctx, pos[0])
}

// agentReview settles a review session, for agents that have no MCP (the
// generic profile's review prompt names this command).
func (e *env) agentReview(verdict, notes string) error {
	switch {
	case verdict != "approve" && verdict != "changes":
		return usagef("unknown verdict %q; use approve or changes", verdict)
	case verdict == "changes" && strings.TrimSpace(notes) == "":
		return usagef("agent review changes needs --notes saying what must change")
	}
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	return e.retry("report the review", func(ctx context.Context) error { return c.AgentReview(ctx, verdict, notes) })
}

// agentDeadline is how long an agent's report is retried while the station
// restarts or its shared board does not answer.
var agentDeadline = 2 * time.Minute

// retry runs call until it succeeds, fails for good (the station refused
// it: a 4xx says why), or agentDeadline passes, waiting longer after each
// try, and says on stderr what it is doing, so the agent (and the person
// reading its console) knows the report is not lost yet.
func (e *env) retry(what string, call func(ctx context.Context) error) error {
	deadline := time.Now().Add(agentDeadline)
	wait := 500 * time.Millisecond
	for {
		err := call(e.ctx)
		var ae *apitype.Error
		if err == nil || errors.As(err, &ae) && ae.Status != http.StatusServiceUnavailable && ae.Status != http.StatusBadGateway && ae.Status != http.StatusGatewayTimeout {
			return err
		}
		if e.ctx.Err() != nil {
			return err
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("could not %s within %v, the last try said: %w; run the same command again", what, agentDeadline, err)
		}
		fmt.Fprintf(e.stderr, "buildstation: could not %s yet (%v); retrying in %v, until %s\n",
			what, err, wait, deadline.Format("15:04:05"))
		select {
		case <-e.ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}
