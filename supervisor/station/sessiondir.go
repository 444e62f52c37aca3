package station

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/supervisor/config"
)

// Each session's own files (the prompt file the agent is given, a
// profile's MCP and settings files) live outside the station's home, in a
// folder of the session's own: agents run as the station's user, and a
// path into the home would lead one straight to the station token. The
// home keeps only the record copy of each prompt (logs/<session>.prompt.md).
//
// Files (platform/stationfs) keeps them under the user's cache folder, one
// parent per home (two homes on one machine may number their tasks alike):
// <cache>/BuildStation/sessions/<home key>/<session id>/, each 0700 with
// its files 0600. A session's folder lasts as long as the session, so a
// tmux session adopted by the next station keeps its prompt; it is
// removed when the session ends, and recover sweeps what a crash left.

// dropSessionDir removes a session's folder once nothing will read it.
func (ss *Sessions) dropSessionDir(id string) {
	if id == "" {
		return
	}
	if err := ss.st.files.DropSessionDir(id); err != nil {
		ss.st.log.Warn("remove session files", "session", id, "err", err)
	}
}

// sweepSessionDirs removes the folders of sessions that no longer run
// (a crash left them): every one but those of the sessions in keep.
func (ss *Sessions) sweepSessionDirs(keep map[string]bool) {
	ids, err := ss.st.files.SessionDirs()
	if err != nil {
		ss.st.log.Warn("sweep session files", "err", err)
		return
	}
	for _, id := range ids {
		if !keep[id] {
			ss.dropSessionDir(id)
		}
	}
}

// agentEnv is the station's environment as a session inherits it: without
// BUILDSTATION_HOME, without anything else that points into the home, and
// without the variables named in secret (config.Config.SecretEnv: the
// sources' tokens and the station's own secrets).
func agentEnv(environ []string, home string, secret []string) []string {
	abs, err := filepath.Abs(home)
	if err != nil {
		abs = home
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if k == config.EnvHome || secretName(secret, k) || pointsInto(v, abs) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// secretName reports whether k is one of secret, in any case: Windows
// reads environment names without case, and dropping a same-named variable
// of another case elsewhere costs nothing.
func secretName(secret []string, k string) bool {
	return slices.ContainsFunc(secret, func(s string) bool { return strings.EqualFold(s, k) })
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
