package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "station.json")
	for _, data := range []string{"first\n", "second, longer than the first\n", ""} {
		if err := Write(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != data {
			t.Errorf("read %q, want %q", got, data)
		}
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
		if err := Write(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v after a write with 0644, want 0644", fi.Mode().Perm())
		}
	}
	onlyFiles(t, dir, "station.json")
}

// A write that cannot finish leaves what was there and no temporary file.
func TestWriteFailsWhole(t *testing.T) {
	dir := t.TempDir()
	// A folder in the way: the rename over it fails.
	path := filepath.Join(dir, "config.toml")
	if err := os.MkdirAll(filepath.Join(path, "kept"), 0o700); err != nil {
		t.Fatal(err)
	}
	err := Write(path, []byte("new"), 0o644)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("write over a folder: %v, want an error naming %s", err, path)
	}
	if _, err := os.Stat(filepath.Join(path, "kept")); err != nil {
		t.Errorf("the folder in the way was touched: %v", err)
	}
	onlyFiles(t, dir, "config.toml")

	missing := filepath.Join(dir, "gone", "x.json")
	if err := Write(missing, []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("write into a missing folder: %v, want an error naming %s", err, missing)
	}
}

func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q (a temporary file left behind?)", dir, got, want)
	}
}
