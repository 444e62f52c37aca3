package gitwt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/buildstation/buildstation/internal/atomicfile"
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
	s.Gate, s.GateBecause = suggestGate(dir)
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

// makeTest is a Makefile's test target at the start of a line.
var makeTest = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^test\s*:`) })

// suggestGate is the command dir's files say runs its tests, and the file
// that says so; "" when none is recognised.
func suggestGate(dir string) (gate, because string) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) > 1<<20 {
			return ""
		}
		return string(data)
	}
	if mk := read("Makefile"); makeTest().MatchString(mk) {
		return "make test", "Makefile"
	}
	if pkg := read("package.json"); pkg != "" {
		var p struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(pkg), &p) == nil && p.Scripts["test"] != "" && !strings.Contains(p.Scripts["test"], "no test specified") {
			return "npm test", "package.json"
		}
	}
	for _, f := range []struct{ file, gate string }{
		{"go.mod", "go test ./..."},
		{"Cargo.toml", "cargo test"},
		{"pytest.ini", "pytest"},
		{"conftest.py", "pytest"},
	} {
		if _, err := os.Stat(filepath.Join(dir, f.file)); err == nil {
			return f.gate, f.file
		}
	}
	if py := read("pyproject.toml"); strings.Contains(py, "[tool.pytest") {
		return "pytest", "pyproject.toml"
	}
	return "", ""
}

// Include is dir's .worktreeinclude as written; "" when it has none.
func (Advisor) Include(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, IncludeFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", filepath.Join(dir, IncludeFile), err)
	}
	return string(data), nil
}

// SetInclude replaces dir's .worktreeinclude with text (a person's edit
// of it, from Edit project), or removes it when text is blank.
func (Advisor) SetInclude(dir, text string) error {
	path := filepath.Join(dir, IncludeFile)
	if strings.TrimSpace(text) == "" {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		return nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
