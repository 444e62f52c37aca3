package supervisor

// HookEvent is what an agent CLI's hooks report (Claude Code's hook JSON,
// reduced to what the watchdog needs).
type HookEvent struct {
	Event            string `json:"hook_event_name"`
	NotificationType string `json:"notification_type,omitempty"`
	Message          string `json:"message,omitempty"`
	Tool             string `json:"tool_name,omitempty"`
	// ToolDetail is the tool's input in one line (the command, the file):
	// what the session's activity shows. The hook fills it in.
	ToolDetail string `json:"tool_detail,omitempty"`
	// Usage is the session's usage so far, read by the hook from the
	// transcript its agent names.
	Usage *TranscriptUsage `json:"usage,omitempty"`
}

// HookMCPReady is the event the station's MCP server reports when a
// session's agent has listed its tools: a prompt held back for them is
// typed then.
const HookMCPReady = "MCPReady"
