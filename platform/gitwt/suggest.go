package gitwt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// Advisor suggests a project's setup and .worktreeinclude from the files
// in its folder (supervisor.SetupAdvisor).
type Advisor struct{}

var _ supervisor.SetupAdvisor = Advisor{}

// setupByFile are the package files that say how a project installs, in
// the order they are looked for: a lock file first, since it says which
// tool; go.mod and Cargo.lock need nothing (their tools fetch on build).
var setupByFile = []struct{ file, setup string }{
	{"pnpm-lock.yaml", "pnpm install --frozen-lockfile"},
	{"package-lock.json", "npm ci"},
	{"yarn.lock", "yarn install --frozen-lockfile"},
	{"uv.lock", "uv sync"},
	{"requirements.txt", "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt"},
	{"go.mod", ""},
	{"Cargo.lock", ""},
}

// Suggest reads dir: the setup its package files call for, and the
// ignored .env files a worktree would miss (git decides what is ignored).
func (Advisor) Suggest(ctx context.Context, dir string) supervisor.SetupSuggestion {
	var s supervisor.SetupSuggestion
	for _, f := range setupByFile {
		if _, err := os.Stat(filepath.Join(dir, f.file)); err == nil {
			s.Setup, s.Because = f.setup, f.file
			break
		}
	}
	if _, err := os.Stat(filepath.Join(dir, IncludeFile)); err == nil {
		return s // the person's own list stands
	}
	envs, _ := filepath.Glob(filepath.Join(dir, ".env*"))
	var names []string
	for _, e := range envs {
		names = append(names, filepath.Base(e))
	}
	ignored, err := checkIgnored(ctx, dir, names)
	if err != nil {
		return s // not a git repository: no worktrees to fill
	}
	if len(ignored) > 0 {
		s.Include = []string{".env*"}
	}
	return s
}

// WriteInclude writes lines as dir's .worktreeinclude, never over one.
func (Advisor) WriteInclude(dir string, lines []string) error {
	path := filepath.Join(dir, IncludeFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists already; edit it by hand", path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	text := "# Ignored files each task's worktree and gate checkout gets (gitignore syntax;\n# only files git ignores are copied). Written by buildstation project add.\n" +
		strings.Join(lines, "\n") + "\n"
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
