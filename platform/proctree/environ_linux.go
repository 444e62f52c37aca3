package proctree

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// Marked returns the pids under root (a /proc) whose environment holds the
// entry marker ("KEY=VALUE") exactly. Every process a session starts
// inherits the session's environment, so this finds its processes even
// after they left the tree: a grandchild that called setsid and whose
// parent died is reparented to init, out of reach of any walk from the
// agent. Processes we may not read are skipped.
func Marked(root, marker string) []int {
	if root == "" {
		root = DefaultRoot
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	want := []byte(marker)
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join(root, e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// Environ is the environment pid was started with ("KEY=VALUE" entries),
// as far as this user may read it; nil when it may not, or pid is gone.
func Environ(root string, pid int) []string {
	if root == "" {
		root = DefaultRoot
	}
	b, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "environ"))
	if err != nil {
		return nil
	}
	var out []string
	for _, kv := range bytes.Split(b, []byte{0}) {
		if len(kv) > 0 {
			out = append(out, string(kv))
		}
	}
	return out
}
