package station

import (
	"context"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// hookInput maps a hook to the watchdog. Every hook is evidence of life;
// some also say what the agent waits for.
func hookInput(h supervisor.HookEvent) (wdInput, string) {
	switch h.Event {
	case "Stop", "SubagentStop":
		return inWaiting, "turn ended"
	case "Notification":
		switch h.NotificationType {
		case "permission_prompt":
			return inPermission, "needs permission: " + h.Message
		case "idle_prompt":
			return inWaiting, "waiting for input"
		}
		// Older CLIs send no type; the message still says which.
		if strings.Contains(strings.ToLower(h.Message), "permission") {
			return inPermission, "needs permission: " + h.Message
		}
		if strings.Contains(strings.ToLower(h.Message), "waiting for your input") {
			return inWaiting, "waiting for input"
		}
		return inReport, "notification: " + h.Message
	case "PostToolUse", "PreToolUse":
		if h.Tool != "" {
			return inReport, "tool " + h.Tool
		}
		return inReport, "tool use"
	case "UserPromptSubmit":
		return inReport, "prompt submitted"
	case "SessionStart":
		return inReport, "session started"
	case "MCP":
		return inReport, "mcp " + h.Tool
	}
	return inReport, "hook " + h.Event
}

// AgentHook records one hook of a session.
func (av *AgentVerbs) AgentHook(ctx context.Context, id string, h supervisor.HookEvent) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	if strings.TrimSpace(h.Event) == "" {
		return supervisor.Invalidf("a hook needs its hook_event_name")
	}
	if h.Event == supervisor.HookMCPReady {
		return s.send(ctx, command{kind: cmdMCPReady})
	}
	av.st.costs.meterHook(s, h)
	in, why := hookInput(h)
	return s.send(ctx, command{kind: cmdReport, input: in, layer: "board", text: why})
}

// meterHook records what a hook says beyond life: the activity its tool
// hooks show, the usage its transcript reports.
func (co *costs) meterHook(s *session, h supervisor.HookEvent) {
	now := time.Now()
	switch h.Event {
	case "PreToolUse":
		// Posted by the agent: a line, bounded, escapes gone.
		s.meter.setActivity(activityOf(supervisor.ActivityDetail(h.Tool), supervisor.ActivityDetail(h.ToolDetail)), now)
	case "PostToolUse", "UserPromptSubmit":
		s.meter.setActivity("thinking", now)
	case "Stop":
		s.meter.setActivity("waiting for input", now)
	}
	if h.Usage != nil {
		co.recordUsage(s, *h.Usage)
	}
}
