package agentcli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstalledListsWhatIsOnPath(t *testing.T) {
	f := Finder{
		LookPath: func(n string) (string, error) {
			if n == "codex" {
				return "", errors.New("not found")
			}
			return "/bin/" + n, nil
		},
		Version: func(_ context.Context, p string) string { return filepath.Base(p) + " 1.2" },
	}
	got := f.Installed(context.Background())
	if len(got) != 2 || got[0].Name != "claude" || got[0].Version != "claude 1.2" || got[1].Name != "gemini" {
		t.Fatalf("%+v", got)
	}
	if _, err := f.Find("codex"); err == nil || !strings.Contains(err.Error(), `"codex" is not installed here`) {
		t.Fatalf("find codex: %v", err)
	}
	if _, err := f.Find(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("a missing path was found")
	}
}

func TestClaudeTrustSteps(t *testing.T) {
	home := t.TempDir()
	work := filepath.Join(home, "src", "web")
	f := Finder{UserHome: home}
	if s := f.Steps("claude", work); len(s) != 1 || !strings.Contains(s[0], "not been set up") {
		t.Fatalf("no .claude.json: %q", s)
	}
	write := func(json string) {
		if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(json), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"hasCompletedOnboarding": true, "projects": {"/elsewhere": {"hasTrustDialogAccepted": true}}}`)
	if s := f.Steps("claude", work); len(s) != 1 || !strings.Contains(s[0], "does not trust "+work) || !strings.Contains(s[0], "run claude once in that folder") {
		t.Fatalf("untrusted: %q", s)
	}
	write(`{"hasCompletedOnboarding": true, "projects": {"` + filepath.ToSlash(filepath.Join(home, "src")) + `": {"hasTrustDialogAccepted": true}}}`)
	if s := f.Steps("claude", work); len(s) != 0 {
		t.Fatalf("a trusted parent: %q", s)
	}
	if s := f.Steps("codex", work); len(s) != 0 {
		t.Fatalf("codex: %q", s)
	}
}
