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
}

// SetupAdvisor reads a project's folder for SetupSuggestion and writes
// its .worktreeinclude (platform/gitwt implements it).
type SetupAdvisor interface {
	Suggest(ctx context.Context, dir string) SetupSuggestion
	// WriteInclude writes lines as dir's .worktreeinclude; it refuses to
	// replace one that exists.
	WriteInclude(dir string, lines []string) error
}
