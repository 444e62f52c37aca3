package supervisor

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor/config"
)

// Each session's own files (the prompt file the agent is given, a
// profile's MCP and settings files) live outside the station's home, in a
// folder of the session's own: agents run as the station's user, and a
// path into the home would lead one straight to the station token. The
// home keeps only the record copy of each prompt (logs/<session>.prompt.md).
//
// The folders are under the user's cache folder, one parent per home (two
// homes on one machine may number their tasks alike):
// <cache>/BuildStation/sessions/<home key>/<session id>/, each 0700 with
// its files 0600. A session's folder lasts as long as the session, so a
// tmux session adopted by the next station keeps its prompt; it is
// removed when the session ends, and recover sweeps what a crash left.

// sessionFilesRoot is the default parent of a home's session folders.
func sessionFilesRoot(home string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a folder for session files outside the home: %w; set XDG_CACHE_HOME (or HOME)", err)
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("find a folder for session files: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "BuildStation", "sessions", hex.EncodeToString(sum[:8])), nil
}

// within reports whether path is dir or lies under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// sessionDir makes a fresh private folder for session id's files.
func (st *Station) sessionDir(id string) (string, error) {
	root := st.opt.SessionFiles
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	// MkdirAll keeps a folder that was already there: make sure it is
	// still the user's own, not a link or a folder others may enter.
	fi, err := os.Lstat(root)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder; remove it", root)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(root, 0o700); err != nil {
			return "", err
		}
	}
	dir := filepath.Join(root, id)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// dropSessionDir removes a session's folder once nothing will read it.
func (st *Station) dropSessionDir(id string) {
	if id == "" || st.opt.SessionFiles == "" {
		return
	}
	if err := os.RemoveAll(filepath.Join(st.opt.SessionFiles, id)); err != nil {
		st.log.Warn("remove session files", "session", id, "err", err)
	}
}

// sweepSessionDirs removes the folders of sessions that no longer run
// (a crash left them): every one but those of the sessions in keep.
func (st *Station) sweepSessionDirs(keep map[string]bool) {
	ents, err := os.ReadDir(st.opt.SessionFiles)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			st.log.Warn("sweep session files", "err", err)
		}
		return
	}
	for _, e := range ents {
		if !keep[e.Name()] {
			st.dropSessionDir(e.Name())
		}
	}
}

// agentEnv is the station's environment as a session inherits it: without
// BUILDSTATION_HOME and without anything else that points into the home.
func agentEnv(environ []string, home string) []string {
	abs, err := filepath.Abs(home)
	if err != nil {
		abs = home
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if k == config.EnvHome || pointsInto(v, abs) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// pointsInto reports whether v names dir or a path under it, alone or as
// one entry of a list (PATH-style) or inside a longer value.
func pointsInto(v, dir string) bool {
	if dir == "" || dir == string(filepath.Separator) {
		return false
	}
	if strings.Contains(v, dir+string(filepath.Separator)) {
		return true
	}
	for _, e := range filepath.SplitList(v) {
		if filepath.Clean(e) == dir {
			return true
		}
	}
	return false
}
