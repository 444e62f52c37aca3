package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An npm project and a uv project each get their setup suggested, and an
// ignored .env a .worktreeinclude for it; a Go module needs no setup.
func TestSuggestSetupFromPackageFiles(t *testing.T) {
	for _, tc := range []struct {
		file, setup string
	}{
		{"package-lock.json", "npm ci"},
		{"pnpm-lock.yaml", "pnpm install --frozen-lockfile"},
		{"uv.lock", "uv sync"},
		{"requirements.txt", "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt"},
		{"go.mod", ""},
		{"Cargo.lock", ""},
	} {
		repo := newRepo(t)
		commitFile(t, repo, tc.file, "x\n", "package file")
		commitFile(t, repo, ".gitignore", ".env\n", "ignore")
		writeFile(t, repo, ".env", "KEY=1\n")
		s := Advisor{}.Suggest(context.Background(), repo)
		if s.Setup != tc.setup || s.Because != tc.file || len(s.Include) != 1 || s.Include[0] != ".env*" {
			t.Errorf("%s: %+v", tc.file, s)
		}
	}
}

// An .env git does not ignore (committed) suggests nothing to include;
// an existing .worktreeinclude is never replaced.
func TestSuggestIncludeOnlyForIgnoredAndNeverOverwrites(t *testing.T) {
	repo := newRepo(t)
	commitFile(t, repo, ".env", "tracked\n", "env")
	if s := (Advisor{}).Suggest(context.Background(), repo); len(s.Include) != 0 {
		t.Errorf("a tracked .env: %+v", s)
	}
	if err := (Advisor{}).WriteInclude(repo, []string{".env*"}); err != nil {
		t.Fatal(err)
	}
	if err := (Advisor{}).WriteInclude(repo, []string{"other"}); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a second write: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(repo, IncludeFile))
	if !strings.Contains(string(data), "\n.env*\n") || strings.Contains(string(data), "other") {
		t.Errorf(".worktreeinclude:\n%s", data)
	}
}

// The gate is suggested from the files that say how a project tests
// itself; a package.json whose test script is npm's placeholder, or a
// Makefile with no test target, suggests none.
func TestSuggestGate(t *testing.T) {
	for _, tc := range []struct{ file, text, gate string }{
		{"Makefile", "build:\n\tgo build\ntest: build\n\tgo test\n", "make test"},
		{"Makefile", "build:\n\tgo build\n", ""},
		{"package.json", `{"scripts": {"test": "vitest run"}}`, "npm test"},
		{"package.json", `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`, ""},
		{"go.mod", "module x\n", "go test ./..."},
		{"Cargo.toml", "[package]\n", "cargo test"},
		{"pyproject.toml", "[tool.pytest.ini_options]\n", "pytest"},
	} {
		dir := t.TempDir()
		writeFile(t, dir, tc.file, tc.text)
		if s := (Advisor{}).Suggest(context.Background(), dir); s.Gate != tc.gate || (tc.gate != "" && s.GateBecause != tc.file) {
			t.Errorf("%s %q: gate %q from %q, want %q", tc.file, tc.text, s.Gate, s.GateBecause, tc.gate)
		}
	}
}

// Edit project reads the .worktreeinclude as written and replaces it with
// the person's edit; a blank edit removes it.
func TestIncludeReadAndReplaced(t *testing.T) {
	dir := t.TempDir()
	a := Advisor{}
	if got, err := a.Include(dir); got != "" || err != nil {
		t.Fatalf("none: %q %v", got, err)
	}
	if err := a.SetInclude(dir, ".env\nnode_modules/"); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Include(dir); got != ".env\nnode_modules/\n" {
		t.Errorf("after the edit: %q", got)
	}
	if err := a.SetInclude(dir, "  \n"); err != nil || exists(filepath.Join(dir, IncludeFile)) {
		t.Errorf("a blank edit: %v, file there: %v", err, exists(filepath.Join(dir, IncludeFile)))
	}
}
