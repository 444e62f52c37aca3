package supervisor

import "context"

// SetupSuggestion is what `project add` and the dashboard's Add project
// offer for a folder, from the package files found in it: a setup
// command, and a .worktreeinclude for the ignored files a worktree would
// miss. Offered, never written unless the person accepts.
type SetupSuggestion struct {
	// Setup is the suggested setup ("npm ci"); "" when none is needed
	// (go.mod, Cargo.lock) or nothing was recognised. Because names the
	// file that suggests it ("package-lock.json").
	Setup   string `json:"setup,omitempty"`
	Because string `json:"because,omitempty"`
	// Include are the lines suggested for the project's .worktreeinclude:
	// the ignored files found that a worktree needs (.env, .env.local);
	// none when the folder has a .worktreeinclude already.
	Include []string `json:"include,omitempty"`
	// Gate is the command the folder's files say runs its tests ("make
	// test" for a Makefile with a test target, "npm test", "go test
	// ./...", "cargo test", "pytest"); GateBecause names the file.
	Gate        string `json:"gate,omitempty"`
	GateBecause string `json:"gate_because,omitempty"`
}

// ProjectSetup is what Edit project shows of a project's folder: its
// .worktreeinclude as written ("" when it has none), what its files
// suggest, and the one-time steps its agent still needs there (re-read
// while the dialog is open, so a step taken meanwhile goes away).
type ProjectSetup struct {
	Include   string          `json:"include"`
	Suggested SetupSuggestion `json:"suggested"`
	Steps     []string        `json:"steps,omitempty"`
}

// IncludeRequest sets a project's .worktreeinclude to Text ("": removes it).
type IncludeRequest struct {
	Text string `json:"text"`
}

// SetupAdvisor reads a project's folder for SetupSuggestion and writes
// its .worktreeinclude (platform/gitwt implements it).
type SetupAdvisor interface {
	Suggest(ctx context.Context, dir string) SetupSuggestion
	// WriteInclude writes lines as dir's .worktreeinclude; it refuses to
	// replace one that exists.
	WriteInclude(dir string, lines []string) error
	// Include is dir's .worktreeinclude as written ("" when none);
	// SetInclude replaces it with text, or removes it when text is "".
	Include(dir string) (string, error)
	SetInclude(dir, text string) error
	// CheckFolder refuses, in one sentence that says what to do, a
	// folder no agent may run in: one git refuses for its ownership, or
	// another user's. `project add` asks it before anything is written.
	CheckFolder(ctx context.Context, dir string) error
}
