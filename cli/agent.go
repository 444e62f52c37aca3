package cli

import (
	"strings"

	"github.com/buildstation/buildstation/supervisor/api"
)

// The agent verbs run inside a session: they reach the station through
// BUILDSTATION_URL and act with the session's own token.

func (e *env) agentComplete(args []string) error {
	f := e.flags("agent complete")
	summary := f.String("summary", "", "what was done, for the reviewer")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	if strings.TrimSpace(*summary) == "" {
		return usagef("agent complete needs --summary saying what was done")
	}
	c, err := api.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentComplete(e.ctx, *summary)
}

func (e *env) agentBlock(args []string) error {
	f := e.flags("agent block")
	reason := f.String("reason", "", "what a person must do to unblock the task")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	if strings.TrimSpace(*reason) == "" {
		return usagef("agent block needs --reason saying what a person must do")
	}
	c, err := api.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentBlock(e.ctx, *reason)
}

func (e *env) agentProgress(args []string) error {
	pos, err := e.parse("agent progress", args, 1, -1)
	if err != nil {
		return err
	}
	msg := strings.Join(pos, " ")
	if strings.TrimSpace(msg) == "" {
		return usagef("agent progress needs a message")
	}
	c, err := api.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentProgress(e.ctx, msg)
}

func (e *env) agentStatus(args []string) error {
	pos, err := e.parse("agent status", args, 1, 1)
	if err != nil {
		return err
	}
	if pos[0] != "working" && pos[0] != "reviewing" {
		return usagef("unknown status %q; use working or reviewing", pos[0])
	}
	c, err := api.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentStatus(e.ctx, pos[0])
}

// agentReview settles a review session, for agents that have no MCP (the
// generic profile's review prompt names this command).
func (e *env) agentReview(args []string) error {
	f := e.flags("agent review")
	notes := f.String("notes", "", "why; for changes, what must change")
	pos, err := f.parse(e, args, 1, 1)
	if err != nil {
		return err
	}
	verdict := pos[0]
	switch {
	case verdict != "approve" && verdict != "changes":
		return usagef("unknown verdict %q; use approve or changes", verdict)
	case verdict == "changes" && strings.TrimSpace(*notes) == "":
		return usagef("agent review changes needs --notes saying what must change")
	}
	c, err := api.FromEnv()
	if err != nil {
		return err
	}
	return c.AgentReview(e.ctx, verdict, *notes)
}
