//go:build unix

package tmux

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// lookPath finds file on path the way the child's own shell would (the
// session's PATH, not the station's), as package pty does. A name with a
// slash is used as is. Relative PATH entries are skipped: they would
// resolve against the agent's worktree.
func lookPath(file, path string) (string, error) {
	if strings.Contains(file, "/") {
		return file, nil
	}
	denied := false
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, file)
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if fi.Mode()&0o111 != 0 {
			return p, nil
		}
		denied = true
	}
	if denied {
		return "", &exec.Error{Name: file, Err: fs.ErrPermission}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// envValue returns key's value in env, the last one winning; with no such
// key it falls back to the station's own environment.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(env[i], "=")
		if ok && k == key {
			return v
		}
	}
	return os.Getenv(key)
}
