//go:build unix

package pty

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// lookPath finds file on path the way the child's own shell would (the
// session's PATH, not the station's), so "claude" resolves to the agent the
// user installed for that environment. A name with a slash is used as is:
// exec resolves it against the session's Dir and reports its own errors.
//
// Relative PATH entries are skipped: they would resolve against Dir, an
// agent worktree, which is how exec.ErrDot attacks work.
// LookPath is lookPath for the other unix backend (tmux), so both resolve
// an agent the same way.
func LookPath(name, pathEnv string) (string, error) { return lookPath(name, pathEnv) }

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
