package supervisor

import "context"

// AgentCLI is an agent command-line program found on this machine: what
// the dashboard's Add project offers to choose from.
type AgentCLI struct {
	Name    string `json:"name"`              // the built-in agent it runs: claude, codex, gemini
	Path    string `json:"path"`              // where it was found
	Version string `json:"version,omitempty"` // what its --version said; "" when it said nothing
}

// AgentFinder is the station's port to the agent CLIs installed on its
// machine (platform/agentcli implements it): which are there, where a
// program is, and what one-time step an agent still needs before it can
// work in a folder unattended.
type AgentFinder interface {
	// Installed lists the built-in agents' CLIs found, with versions.
	Installed(ctx context.Context) []AgentCLI
	// Find is where program (a name on PATH, or a path) is, or an error
	// that says it cannot be found.
	Find(program string) (string, error)
	// Steps are the one-time steps agent profile (claude, codex, gemini,
	// generic) still needs in folder, each one sentence that says how to
	// take it: Claude Code asks whether to trust a folder it has not
	// seen, and waits for a person. None: ready.
	Steps(profile, folder string) []string
}

// NewProject is a project to add to config.toml: a folder, its name ("":
// the folder's name), and the agent that works in it — a named agent, or
// an inline command; neither: the [defaults] agent. Settings are its
// per-project overrides (idle_window, block_window, review_idle_window …,
// the keys SetProjectSettings takes), written in its table. DryRun checks
// it all and answers the project as it would run (its effective windows:
// the [defaults] for those not set) and the steps, writing nothing: the
// dashboard's Add project shows the defaults and refuses bad input before
// the person confirms.
type NewProject struct {
	Name     string            `json:"name,omitempty"`
	Path     string            `json:"path"`
	Agent    string            `json:"agent,omitempty"`
	Command  []string          `json:"command,omitempty"`
	Settings map[string]string `json:"settings,omitempty"`
	DryRun   bool              `json:"dry_run,omitempty"`
	// Setup is the project's setup key; Include, when set, is written as
	// the folder's .worktreeinclude (never over one). Both come from a
	// SetupSuggestion the person accepted, or their own.
	Setup   string   `json:"setup,omitempty"`
	Include []string `json:"include,omitempty"`
}

// AddedProject is what adding a project answers: the project as the
// station now runs it, and the one-time steps its agent still needs.
type AddedProject struct {
	Project ProjectInfo `json:"project"`
	Steps   []string    `json:"steps,omitempty"`
	// Suggested is the setup and .worktreeinclude the folder's files call
	// for, offered for the person to accept; nil when there is nothing.
	Suggested *SetupSuggestion `json:"suggested,omitempty"`
}
