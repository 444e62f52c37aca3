package clone

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func write(t *testing.T, path, text string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
}

// A folder comes whole: files with their content and modes, links as
// links; a file already at the destination is kept as it is.
func TestTreeBringsAFolderAndKeepsWhatIsThere(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "wt")
	write(t, filepath.Join(src, "node_modules", "left-pad", "index.js"), "module.exports = 1\n", 0o644)
	write(t, filepath.Join(src, "node_modules", "left-pad", "cli.js"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(src, "node_modules", "kept.txt"), "from the project\n", 0o644)
	if runtime.GOOS != "windows" {
		if err := os.MkdirAll(filepath.Join(src, "node_modules", ".bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../left-pad/cli.js", filepath.Join(src, "node_modules", ".bin", "left-pad")); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dst, "node_modules", "kept.txt"), "the worktree's own\n", 0o644)

	st, err := Tree(filepath.Join(src, "node_modules"), filepath.Join(dst, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "node_modules", "left-pad", "index.js")); string(got) != "module.exports = 1\n" {
		t.Errorf("index.js: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "node_modules", "kept.txt")); string(got) != "the worktree's own\n" {
		t.Errorf("an existing file was overwritten: %q", got)
	}
	if st.Kept != 1 || st.How() == "" {
		t.Errorf("stats %+v: want one kept and some brought", st)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(filepath.Join(dst, "node_modules", "left-pad", "cli.js"))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("cli.js mode: %v %v", fi, err)
		}
		target, err := os.Readlink(filepath.Join(dst, "node_modules", ".bin", "left-pad"))
		if err != nil || target != "../left-pad/cli.js" {
			t.Errorf("the link: %q %v", target, err)
		}
	}
}

// A single file to a folder that does not exist yet, and never over one
// that does.
func TestTreeOneFile(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	write(t, filepath.Join(src, ".env"), "SECRET=1\n", 0o600)
	st, err := Tree(filepath.Join(src, ".env"), filepath.Join(dst, "sub", ".env"))
	if err != nil || st.Cloned+st.Copied != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	write(t, filepath.Join(dst, ".env"), "MINE=1\n", 0o600)
	st, err = Tree(filepath.Join(src, ".env"), filepath.Join(dst, ".env"))
	if err != nil || st.Kept != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dst, ".env")); string(got) != "MINE=1\n" {
		t.Errorf("overwritten: %q", got)
	}
}
