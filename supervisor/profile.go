package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor/config"
)

// launchSpec is what an agent profile needs to wire one session to the
// station: who it is, where the station answers, where files may go.
type launchSpec struct {
	Agent          config.Agent
	PermissionMode string // the project's permission_mode; "" keeps the agent's own
	SessionID      string
	URL            string // the station API's base; MCP answers at URL+"/mcp"
	Self           string // the buildstation executable, for hooks that call back
	Dir            string // where the profile's files go (the logs folder)
	Prompt         string
}

// launch is how a session's agent starts.
type launch struct {
	Argv []string
	// Env is added after the station's BUILDSTATION_* variables and before
	// the agent's own env from config.toml, which may override it.
	Env []string
}

// tokenEnv is how a profile's files name the session token: by reference
// only, expanded by the agent CLI from its environment, so the token stays
// out of argv (visible to every user in ps) and out of files on disk.
const tokenEnv = "BUILDSTATION_TOKEN"

// mcpServerName is the name the station's MCP server has in every agent,
// so tools read mcp__buildstation__complete_task in Claude Code.
const mcpServerName = "buildstation"

// stationTools are the MCP tools a session may call without asking a
// person: they only report on the session's own task.
var stationTools = []string{"get_task", "report_progress", "set_status", "complete_task", "block_task", "complete_review"}

// agentLaunch builds a session's command line and extra environment from
// its agent profile, writing any config file the profile needs (0600,
// named after the session) into spec.Dir.
func agentLaunch(spec launchSpec) (launch, error) {
	switch spec.Agent.Profile {
	case "claude":
		return claudeLaunch(spec)
	case "codex":
		return codexLaunch(spec), nil
	case "gemini":
		return geminiLaunch(spec)
	}
	// generic: the command reads BUILDSTATION_PROMPT_FILE and reports with
	// `buildstation agent …`; no prompt argument, no wiring.
	return launch{Argv: baseArgv(spec.Agent)}, nil
}

func baseArgv(a config.Agent) []string {
	return append(append([]string{}, a.Command...), a.Args...)
}

// writeProfileFile writes one of a session's wiring files as indented JSON.
func writeProfileFile(spec launchSpec, suffix string, v any) (string, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", suffix, err)
	}
	path := filepath.Join(spec.Dir, spec.SessionID+suffix)
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", suffix, err)
	}
	return path, nil
}

// hookCommand is the shell command line a hook runs. Claude Code runs hook
// commands through a shell, so the path is double-quoted (it may hold
// spaces: "Program Files", "Application Support") with the characters a
// POSIX shell still treats specially inside double quotes escaped.
func hookCommand(self string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return `"` + r.Replace(self) + `" agent hook`
}
