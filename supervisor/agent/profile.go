package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Agent is a command that runs a coding agent, and which profile (the
// wiring: hooks, MCP config) the station gives it: config.toml's
// [agents.NAME] table (config.Agent is this type).
type Agent struct {
	Name    string
	Command []string          // command: program and fixed arguments
	Args    []string          // args: extra arguments
	Env     map[string]string // env: extra environment
	Profile string            // profile: a registered profile's name (see Profiles)
}

// Profile is how one agent CLI is wired to the station. Each profile is
// one file of this package that registers itself (Register, from its
// init); config validation, the default config.toml and the docs read
// the registry, so a new profile is that one file and its test.
type Profile struct {
	Name  string
	About string // a few words for config.toml's comments
	// BuiltIn: a fresh install has [agents.NAME] with command = [NAME],
	// so a project may name it with no [agents] table at all.
	BuiltIn bool
	// MCP: the agent is given the station's MCP tools; without them it
	// reports with `buildstation agent …`, and its prompts say so.
	MCP    bool
	Launch func(LaunchSpec) (Launch, error)
}

// Generic is the profile of any command without wiring of its own.
const Generic = "generic"

var registry = map[string]Profile{}

// Register adds a profile; it panics on a name registered twice, which
// is a programming error found by any test of the package.
func Register(p Profile) {
	if _, dup := registry[p.Name]; dup || p.Name == "" || p.Launch == nil {
		panic(fmt.Sprintf("agent: profile %q registered twice, unnamed or without Launch", p.Name))
	}
	registry[p.Name] = p
}

// Profiles are the registered profiles, by name.
func Profiles() []Profile {
	out := make([]Profile, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Profile) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ProfileNames are the registered profiles' names, sorted; builtIn keeps
// only those a fresh install has an [agents] entry for.
func ProfileNames(builtIn bool) []string {
	var out []string
	for _, p := range Profiles() {
		if p.BuiltIn || !builtIn {
			out = append(out, p.Name)
		}
	}
	return out
}

// profileOf is the profile named, or the generic one.
func profileOf(name string) Profile {
	if p, ok := registry[name]; ok {
		return p
	}
	return registry[Generic]
}

// LaunchSpec is what an agent profile needs to wire one session to the
// station: who it is, where the station answers, where files may go.
type LaunchSpec struct {
	Agent          Agent
	PermissionMode string // the project's permission_mode; "" keeps the agent's own
	SessionID      string
	URL            string // the station API's base; MCP answers at URL+"/mcp"
	Self           string // the buildstation executable, for hooks that call back
	Prompt         string
	PromptFile     string // where the prompt is written (BUILDSTATION_PROMPT_FILE)
	// WriteFile writes one of the profile's files (0600) into the
	// session's private folder and returns its path.
	WriteFile func(name string, data []byte) (string, error)
}

// Launch is how a session's agent starts.
//
// The prompt never goes into argv whole: argv cannot carry a NUL, is capped
// (32 KiB for a whole Windows command line, 128 KiB per argument on Linux,
// ARG_MAX in all), and through an npm .cmd shim cmd.exe cannot carry a line
// break at all. A task's title and body are anybody's text, so a profile
// either has the station type the prompt into the agent's terminal (Type),
// or gives the agent a one-line pointer to the prompt file.
type Launch struct {
	Argv []string
	// Env is added after the station's BUILDSTATION_* variables and before
	// the agent's own env from config.toml, which may override it.
	Env []string
	// Type is typed into the session as its first message (text, then
	// Enter as a separate write); "" types nothing.
	Type string
	// TypeAfterMCP holds Type back until the session's agent has listed
	// the station's MCP tools, so that its first turn can call them.
	TypeAfterMCP bool
	// TypePasted wraps Type in bracketed-paste markers (ESC[200~ … ESC[201~)
	// for a TUI that turns the mode on: one paste, however many reads the
	// terminal splits it into. Without them Claude Code took each 4 KiB
	// read of a long prompt for a paste of its own.
	TypePasted bool
	// TypeLine is Type in one line with no line break (a pointer to the
	// prompt file), typed instead of a paste where the terminal drops the
	// paste's markers (supervisor.PasteDropper: Windows' ConPTY).
	TypeLine string
}

// pointerPrompt is the one-line prompt for an agent CLI that can only take
// its prompt as an argument: it names the file that holds the whole task.
// A path cannot hold a line break that matters here: one that did would
// only end the line early, never reach a shell.
func pointerPrompt(spec LaunchSpec) string {
	path := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, spec.PromptFile)
	return "Your task is in the file " + path + " (also named by $BUILDSTATION_PROMPT_FILE): read all of it first, then do what it says."
}

// tokenEnv is how a profile's files name the session token: by reference
// only, expanded by the agent CLI from its environment, so the token stays
// out of argv (visible to every user in ps) and out of files on disk.
const tokenEnv = "BUILDSTATION_TOKEN"

// mcpServerName is the name the station's MCP server has in every agent,
// so tools read mcp__buildstation__complete_task in Claude Code.
const mcpServerName = "buildstation"

// Build builds a session's command line and extra environment from
// its agent profile, writing any config file the profile needs (0600,
// named after the session) with spec.WriteFile.
func Build(spec LaunchSpec) (Launch, error) {
	return profileOf(spec.Agent.Profile).Launch(spec)
}

func baseArgv(a Agent) []string {
	return append(append([]string{}, a.Command...), a.Args...)
}

// writeProfileFile writes one of a session's wiring files as indented JSON.
func writeProfileFile(spec LaunchSpec, suffix string, v any) (string, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", suffix, err)
	}
	path, err := spec.WriteFile(spec.SessionID+suffix, append(data, '\n'))
	if err != nil {
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
