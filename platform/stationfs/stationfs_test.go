package stationfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The files land where docs/contract.md's "Files" section says, with the modes
// its "Security" section promises.
func TestFilesAndModes(t *testing.T) {
	home, sessions := t.TempDir(), filepath.Join(t.TempDir(), "s")
	f, err := New(home, sessions)
	if err != nil {
		t.Fatal(err)
	}
	w, err := f.AppendTranscript("t1.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("out")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := f.WritePromptRecord("t1.1", "do it"); err != nil {
		t.Fatal(err)
	}
	dir, err := f.MakeSessionDir("t1.1")
	if err != nil {
		t.Fatal(err)
	}
	prompt, err := f.WriteSessionFile("t1.1", "prompt.md", []byte("do it"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{
		filepath.Join(home, "logs"):                   0o700,
		filepath.Join(home, "logs", "t1.1.log"):       0o600,
		filepath.Join(home, "logs", "t1.1.prompt.md"): 0o600,
		sessions:                        0o700,
		filepath.Join(sessions, "t1.1"): 0o700,
		filepath.Join(sessions, "t1.1", "prompt.md"): 0o600,
	}
	if dir != filepath.Join(sessions, "t1.1") || prompt != filepath.Join(dir, "prompt.md") {
		t.Errorf("session folder %s, prompt %s", dir, prompt)
	}
	for path, mode := range want {
		fi, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), mode)
		}
	}
	r, err := f.OpenTranscript("t1.1")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	if _, err := r.ReadAt(buf, 0); err != nil || string(buf) != "out" {
		t.Errorf("transcript reads %q, %v", buf, err)
	}
	r.Close()
	if _, err := f.OpenTranscript("t9.1"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing transcript: %v, want fs.ErrNotExist", err)
	}
	if infos, err := f.TaskTranscripts("t1"); err != nil || len(infos) != 1 || infos[0].Name() != "t1.1.log" {
		t.Errorf("TaskTranscripts(t1) = %v, %v", infos, err)
	}
	if _, ok := f.SessionFile("t1.1", "fenced-by-guard"); ok {
		t.Error("a guard note nobody wrote exists")
	}
	if ids, err := f.SessionDirs(); err != nil || len(ids) != 1 || ids[0] != "t1.1" {
		t.Errorf("SessionDirs = %v, %v", ids, err)
	}
	f.Tidy() // a folder is left: nothing goes
	if err := f.DropSessionDir("t1.1"); err != nil {
		t.Fatal(err)
	}
	f.Tidy()
	if _, err := os.Stat(sessions); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the empty parent of the session folders is still there: %v", err)
	}
	if ids, err := f.SessionDirs(); err != nil || len(ids) != 0 {
		t.Errorf("SessionDirs with no parent = %v, %v; want none", ids, err)
	}
}

// Agents must never be pointed into the home (it holds the token).
func TestSessionFolderMustNotBeInsideTheHome(t *testing.T) {
	home := t.TempDir()
	if _, err := New(home, filepath.Join(home, "sessions")); err == nil || !strings.Contains(err.Error(), "inside the home") {
		t.Fatalf("New with session files inside the home: %v, want refused", err)
	}
}

// The default parent is under the user's cache folder, one per home.
func TestDefaultSessionFolderIsInTheCache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CACHE_HOME is the cache folder on Linux")
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	a, err := New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(a.sessions) != filepath.Join(cache, "BuildStation", "sessions") || a.sessions == b.sessions {
		t.Errorf("session folders %s and %s, want two under %s", a.sessions, b.sessions, filepath.Join(cache, "BuildStation", "sessions"))
	}
}
