package pty

import (
	"os/exec"
	"strings"
)

// Windows path rules, written out so that the PATHEXT search is tested on
// every OS (path/filepath follows the OS it was built for).

// winExt is the extension of a Windows path's last element, dot included.
func winExt(p string) string {
	for i := len(p) - 1; i >= 0 && p[i] != '\\' && p[i] != '/' && p[i] != ':'; i-- {
		if p[i] == '.' {
			return p[i:]
		}
	}
	return ""
}

// winIsAbs reports whether p is absolute on Windows: `C:\x`, `C:/x` or a
// UNC path. `C:x` and `\x` are relative to a drive's current directory.
func winIsAbs(p string) bool {
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, `//`) {
		return true
	}
	return len(p) >= 3 && isAlnum(rune(p[0])) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// winJoin joins a directory and a file name with one backslash.
func winJoin(dir, file string) string {
	return strings.TrimRight(dir, `\/`) + `\` + file
}

// winSplitList splits a PATH value at semicolons; an entry may be quoted
// ("C:\a;b") to hold one, as filepath.SplitList allows on Windows.
func winSplitList(path string) []string {
	var list []string
	var cur strings.Builder
	quoted := false
	for _, r := range path {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ';' && !quoted:
			list = append(list, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	if path != "" {
		list = append(list, cur.String())
	}
	return list
}

// pathExts parses PATHEXT into lower-case extensions; empty or unusable, it
// is cmd.exe's default set.
func pathExts(pathext string) []string {
	var exts []string
	for _, e := range strings.Split(strings.ToLower(pathext), ";") {
		e = strings.TrimSpace(e)
		if len(e) > 1 && e[0] == '.' {
			exts = append(exts, e)
		}
	}
	if len(exts) == 0 {
		exts = []string{".com", ".exe", ".bat", ".cmd"}
	}
	return exts
}

// winLookPath finds file on path, trying each PATHEXT extension, so "claude"
// resolves to claude.exe or claude.cmd as the user's shell would. Unlike
// cmd.exe it never searches the current directory first (see exec.ErrDot),
// and relative PATH entries are skipped: they would resolve against the
// agent's worktree. A name with a path separator is only completed with an
// extension. isFile is os.Stat on Windows and a fake in tests.
func winLookPath(file, path, pathext string, isFile func(string) bool) (string, error) {
	exts := pathExts(pathext)
	if strings.ContainsAny(file, `:\/`) {
		if p, ok := winWithExt(file, exts, isFile); ok {
			return p, nil
		}
		return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
	}
	for _, dir := range winSplitList(path) {
		if !winIsAbs(dir) {
			continue
		}
		if p, ok := winWithExt(winJoin(dir, file), exts, isFile); ok {
			return p, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// winWithExt returns p itself if it already has one of exts and is a file,
// else the first p+ext that is a file. A name with some other extension
// ("claude.js") still gets one appended, as cmd.exe does.
func winWithExt(p string, exts []string, isFile func(string) bool) (string, bool) {
	ext := strings.ToLower(winExt(p))
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
