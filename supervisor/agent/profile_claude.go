package agent

func init() {
	Register(Profile{Name: "claude", About: "Claude Code", BuiltIn: true, MCP: true, Launch: claudeLaunch})
}

// claudeHookEvents are the Claude Code hooks that report to the station:
// every one is evidence of life, and Stop, Notification (permission_prompt,
// idle_prompt) and UserPromptSubmit say what the session waits for;
// PreToolUse and PostToolUse say what it is doing, and carry the
// transcript whose usage the station prices. PermissionRequest asks a
// person and waits (AskHookTimeout).
var claudeHookEvents = []string{"SessionStart", "UserPromptSubmit", "Stop", "Notification", "PreToolUse", "PostToolUse", "PermissionRequest"}

// AskHookTimeout is the timeout, in seconds, the agent gives the
// PermissionRequest hook: longer than the station ever keeps a request
// waiting (the project's idle window, and the hook's own hour), so the
// station, not the agent, ends the wait and the agent then shows its own
// dialog.
const AskHookTimeout = 3660

// claudeLaunch wires Claude Code to the station (see docs/claude-code.md):
//   - --mcp-config with the station's MCP endpoint and --strict-mcp-config,
//     so a project's own .mcp.json cannot shadow or add servers;
//   - --allowedTools pre-approving the station's tools: a session must never
//     stop at a permission prompt to report its own progress;
//   - --settings with hooks that call `buildstation agent hook`;
//   - no prompt in argv: the station types it once the session has listed
//     the station's MCP tools. Claude Code submits a prompt given in argv
//     before its MCP servers connect, so that first turn would see no
//     station tools (docs/claude-code.md); and argv cannot carry every prompt
//     (see launch);
//   - ENABLE_TOOL_SEARCH=false, else MCP tools hide behind a ToolSearch tool
//     and the model sees only the built-in ones.
func claudeLaunch(spec LaunchSpec) (Launch, error) {
	mcp := map[string]any{"mcpServers": map[string]any{
		mcpServerName: map[string]any{
			"type":    "http",
			"url":     spec.URL + "/mcp",
			"headers": map[string]string{"Authorization": "Bearer ${" + tokenEnv + "}"},
		},
	}}
	mcpFile, err := writeProfileFile(spec, ".mcp.json", mcp)
	if err != nil {
		return Launch{}, err
	}
	hooks := map[string]any{}
	for _, ev := range claudeHookEvents {
		h := map[string]any{"type": "command", "command": hookCommand(spec.Self)}
		if ev == "PermissionRequest" {
			h["timeout"] = AskHookTimeout
		}
		hooks[ev] = []any{map[string]any{"hooks": []any{h}}}
	}
	settingsFile, err := writeProfileFile(spec, ".settings.json", map[string]any{"hooks": hooks})
	if err != nil {
		return Launch{}, err
	}
	argv := baseArgv(spec.Agent)
	argv = append(argv, "--mcp-config", mcpFile, "--strict-mcp-config", "--allowedTools")
	for _, t := range stationTools() {
		argv = append(argv, "mcp__"+mcpServerName+"__"+t)
	}
	argv = append(argv, "--settings", settingsFile)
	if spec.PermissionMode != "" {
		// config.toml's names are Claude Code's own.
		argv = append(argv, "--permission-mode", spec.PermissionMode)
	}
	return Launch{Argv: argv, Env: []string{"ENABLE_TOOL_SEARCH=false"}, Type: spec.Prompt, TypeAfterMCP: true, TypePasted: true, TypeLine: pointerPrompt(spec)}, nil
}
