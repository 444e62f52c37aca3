package pty

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// lookPath finds file on the session's PATH, trying each PATHEXT extension,
// so "claude" resolves to claude.exe or claude.cmd as the user's shell would.
// Unlike cmd.exe it never searches the current directory first (see
// exec.ErrDot). A name with a path separator is only completed with an
// extension.
func lookPath(file, path, pathext string) (string, error) {
	exts := []string{".com", ".exe", ".bat", ".cmd"}
	if pathext != "" {
		exts = exts[:0]
		for _, e := range strings.Split(strings.ToLower(pathext), ";") {
			if e != "" && e[0] == '.' {
				exts = append(exts, e)
			}
		}
	}
	if strings.ContainsAny(file, `:\/`) {
		if p, ok := withExt(file, exts); ok {
			return p, nil
		}
		return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if p, ok := withExt(filepath.Join(dir, file), exts); ok {
			return p, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// withExt returns p itself if it already has one of exts and is a file,
// else the first p+ext that is a file.
func withExt(p string, exts []string) (string, bool) {
	isFile := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && !fi.IsDir()
	}
	ext := strings.ToLower(filepath.Ext(p))
	for _, e := range exts {
		if ext == e && isFile(p) {
			return p, true
		}
	}
	for _, e := range exts {
		if isFile(p + e) {
			return p + e, true
		}
	}
	return "", false
}
