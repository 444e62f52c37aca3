package agent

import (
	"encoding/json"
	"fmt"
)

func init() {
	Register(Profile{Name: "codex", About: "OpenAI's Codex CLI", BuiltIn: true, MCP: true,
		Launch: func(spec LaunchSpec) (Launch, error) { return codexLaunch(spec), nil }})
}

// codexLaunch wires OpenAI's Codex CLI to the station.
//
// Codex has no flag for an MCP config file; a streamable HTTP server is a
// [mcp_servers.<name>] table with url and bearer_token_env_var (the NAME of
// the variable holding the token, so the token stays out of argv and files),
// and any config key can be set for one run with -c key=value, whose value
// parses as JSON when it can:
// https://developers.openai.com/codex/mcp and
// https://developers.openai.com/codex/cli/reference (--config, -c).
//
// Codex's hooks (inline [hooks] tables in config, behind the codex_hooks
// feature in older releases: https://developers.openai.com/codex/hooks)
// take Claude Code's shape: a JSON event on stdin, and for
// PermissionRequest a hookSpecificOutput.decision {behavior, message} on
// stdout. The station installs its PermissionRequest hook, so a person
// answers Codex's approval prompts from the tray or the CLI too; the rest
// of a Codex session is watched by its console, commits and CPU, and
// reports through MCP (the generic `buildstation agent …` commands work
// too). Not run against the real Codex CLI here: checked against the hook
// schema's recorded input (cli/testdata/codex-permission-request.json).
func codexLaunch(spec LaunchSpec) Launch {
	argv := baseArgv(spec.Agent)
	argv = append(argv,
		"-c", "mcp_servers."+mcpServerName+".url="+jsonString(spec.URL+"/mcp"),
		"-c", "mcp_servers."+mcpServerName+".bearer_token_env_var="+jsonString(tokenEnv),
		"-c", "features.codex_hooks=true",
		"-c", "hooks.PermissionRequest="+codexHook(spec.Self),
	)
	argv = append(argv, codexPermission(spec.PermissionMode)...)
	// Codex's prompt is its positional argument, so it gets the one-line
	// pointer to the prompt file (see launch); "--" keeps it from ever
	// being read as a flag.
	argv = append(argv, "--", pointerPrompt(spec))
	return Launch{Argv: argv}
}

// codexPermission maps permission_mode (Claude Code's names) onto Codex's
// approval policy and sandbox flags from its CLI reference. "auto" and ""
// keep Codex's own default.
func codexPermission(mode string) []string {
	switch mode {
	case "default":
		// Ask before any command that is not known to be safe.
		return []string{"--ask-for-approval", "untrusted"}
	case "acceptEdits":
		// Edit and run inside the workspace; ask to leave it.
		return []string{"--sandbox", "workspace-write", "--ask-for-approval", "on-request"}
	case "plan":
		return []string{"--sandbox", "read-only"}
	case "bypassPermissions":
		return []string{"--dangerously-bypass-approvals-and-sandbox"}
	}
	return nil
}

// codexHook is the PermissionRequest hook as a TOML inline value (what -c
// parses): one command hook with the ask timeout.
func codexHook(self string) string {
	return fmt.Sprintf(`[{hooks=[{type="command",command=%s,timeout=%d}]}]`, jsonString(hookCommand(self)), AskHookTimeout)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}
