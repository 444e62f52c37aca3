package proctree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMarked(t *testing.T) {
	root := t.TempDir()
	for pid, env := range map[string]string{
		"10": "PATH=/bin\x00BUILDSTATION_SESSION_ID=t1.1\x00HOME=/h\x00",
		"11": "BUILDSTATION_SESSION_ID=t1.10\x00",  // another session: a prefix is not a match
		"12": "X=BUILDSTATION_SESSION_ID=t1.1\x00", // a value that contains it is not a match
		"13": "BUILDSTATION_SESSION_ID=t1.1",       // the last entry without its NUL
	} {
		os.MkdirAll(filepath.Join(root, pid), 0o755)
		os.WriteFile(filepath.Join(root, pid, "environ"), []byte(env), 0o644)
	}
	os.MkdirAll(filepath.Join(root, "self"), 0o755)
	got := Marked(root, "BUILDSTATION_SESSION_ID=t1.1")
	slices.Sort(got)
	if !slices.Equal(got, []int{10, 13}) {
		t.Fatalf("Marked = %v, want [10 13]", got)
	}
}
