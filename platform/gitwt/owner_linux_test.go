package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nobody is the uid another local user's folder is given here.
const nobody = 65534

// chownAll gives dir and everything in it to uid, as if another user made it.
func chownAll(t *testing.T, dir string, uid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Another user's folder (here: nobody's, 0777, a git repo) is refused as
// a project, with what git would say and what to do; so is a folder that
// is not git at all. Once the person trusts it in git's own config
// (safe.directory), git takes it, and so does the station. Prepare never
// falls back to running the agent in a folder git refuses.
func TestAnotherUsersFolderIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	ctx := context.Background()
	repo := newRepo(t)
	chownAll(t, repo, nobody)
	os.Chmod(repo, 0o777)
	err := Advisor{}.CheckFolder(ctx, repo)
	if err == nil || !strings.Contains(err.Error(), repo+" is owned by another user") ||
		!strings.Contains(err.Error(), "git config --global --add safe.directory "+repo) ||
		!strings.Contains(err.Error(), "Clone it into a folder you own") {
		t.Errorf("another user's repo: %v", err)
	}
	m := New(newCache(), nil)
	ws, err := m.Prepare(ctx, project(repo, ""), "t1")
	if err == nil || !strings.Contains(err.Error(), "owned by another user") {
		t.Errorf("Prepare in a repo git refuses: %+v, %v; want an error, never the project folder", ws, err)
	}

	plain := t.TempDir()
	writeFile(t, plain, "Makefile", "all:\n\ttouch /tmp/owned\n")
	chownAll(t, plain, nobody)
	if err := (Advisor{}).CheckFolder(ctx, plain); err == nil || !strings.Contains(err.Error(), plain+" is owned by another user") {
		t.Errorf("another user's folder (not git): %v", err)
	}
	if ws, err := m.Prepare(ctx, project(plain, ""), "t1"); err == nil {
		t.Errorf("Prepare in another user's folder: %+v, want an error", ws)
	}

	if err := (Advisor{}).CheckFolder(ctx, newRepo(t)); err != nil {
		t.Errorf("the user's own repo: %v", err)
	}
	if err := (Advisor{}).CheckFolder(ctx, t.TempDir()); err != nil {
		t.Errorf("the user's own folder: %v", err)
	}

	// Trusted on purpose, the way git's sentence says.
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte("[safe]\n\tdirectory = "+repo+"\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	if err := (Advisor{}).CheckFolder(ctx, repo); err != nil {
		t.Errorf("a repo trusted with safe.directory: %v", err)
	}
}
