package agent

func init() {
	Register(Profile{Name: "gemini", About: "Google's Gemini CLI", BuiltIn: true, MCP: true, Launch: geminiLaunch})
}

// geminiLaunch wires Google's Gemini CLI to the station.
//
// Gemini CLI has no flag for a settings or MCP file. It reads mcpServers from
// its settings layers, and the path of the lowest one, the system defaults
// file, can be moved with GEMINI_CLI_SYSTEM_DEFAULTS_PATH; string values in
// settings may reference environment variables as $VAR or ${VAR}, resolved
// when the settings load:
// https://geminicli.com/docs/reference/configuration (settings files).
// A streamable HTTP server is httpUrl with headers, and trust skips the
// confirmation of that server's tool calls:
// https://geminicli.com/docs/tools/mcp-server.
//
// The defaults layer is the one we take over because it is the least
// intrusive: the user's, the project's and an administrator's system
// override settings all still apply on top (a machine-wide defaults file,
// rare, is not read for station sessions). We do not write a
// .gemini/settings.json into the worktree: it would show up in the
// agent's diff.
//
// Gemini's hook events (BeforeAgent, AfterAgent, …) are not Claude Code's,
// and `buildstation agent hook` reads Claude Code's; so no hooks here: a
// Gemini session reports through MCP and is watched by console, commits
// and CPU.
func geminiLaunch(spec LaunchSpec) (Launch, error) {
	settings := map[string]any{"mcpServers": map[string]any{
		mcpServerName: map[string]any{
			"httpUrl": spec.URL + "/mcp",
			"headers": map[string]string{"Authorization": "Bearer ${" + tokenEnv + "}"},
			"trust":   true,
		},
	}}
	file, err := writeProfileFile(spec, ".settings.json", settings)
	if err != nil {
		return Launch{}, err
	}
	argv := baseArgv(spec.Agent)
	if m := geminiApproval(spec.PermissionMode); m != "" {
		argv = append(argv, "--approval-mode="+m)
	}
	// -i runs the prompt and stays interactive (a positional prompt did not
	// on older releases); the "=" form keeps a prompt starting with "-"
	// from being parsed as a flag. The prompt is the one-line pointer to
	// the prompt file (see launch).
	// https://geminicli.com/docs/cli/cli-reference
	argv = append(argv, "--prompt-interactive="+pointerPrompt(spec))
	return Launch{Argv: argv, Env: []string{"GEMINI_CLI_SYSTEM_DEFAULTS_PATH=" + file}}, nil
}

// geminiApproval maps permission_mode (Claude Code's names) onto Gemini's
// --approval-mode values. "auto" and "" keep Gemini's own default.
func geminiApproval(mode string) string {
	switch mode {
	case "default":
		return "default"
	case "acceptEdits":
		return "auto_edit"
	case "plan":
		return "plan"
	case "bypassPermissions":
		return "yolo"
	}
	return ""
}
