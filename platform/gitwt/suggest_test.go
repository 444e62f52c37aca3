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
