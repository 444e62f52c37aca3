package station

import (
	"fmt"
	"io"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A project's setup (its setup key and .worktreeinclude) runs inside
// Workspaces.Prepare, before the session exists: the watchdog's windows
// start when the agent does, so the setup's time is never its silence.
// The station keeps each project's last setup time, to warn in status
// when a setup takes longer than the project's idle window.

// noteSetup remembers how long project's last setup took.
func (ps *Projects) noteSetup(project string, run supervisor.SetupRun) {
	if run.Command == "" {
		return
	}
	ps.st.setupMu.Lock()
	defer ps.st.setupMu.Unlock()
	if ps.st.setupTook == nil {
		ps.st.setupTook = map[string]time.Duration{}
	}
	ps.st.setupTook[project] = run.Took
}

// setupWarnings are the projects whose last setup took longer than their
// idle window: not the agent's silence, but a person waits that long
// before any task of theirs starts, and a gate pays it on every commit.
func (ps *Projects) setupWarnings() []string {
	ps.st.setupMu.Lock()
	defer ps.st.setupMu.Unlock()
	var out []string
	for _, p := range ps.st.Config().Projects {
		took, ok := ps.st.setupTook[p.Name]
		if !ok {
			continue
		}
		if idle := ps.effective(p).IdleWindow; took > idle {
			out = append(out, fmt.Sprintf("project %s: its setup (`%s`) took %s, longer than its idle window (%s); every new worktree and gate checkout waits that long: make the setup faster (a .worktreeinclude can bring node_modules in), or accept the wait",
				p.Name, p.Setup, took.Round(time.Second), idle))
		}
	}
	return out
}

// writeSetupLog writes a setup's output to session id's transcript when
// the session never started (its setup failed), so `buildstation logs`
// shows why.
func (ps *Projects) writeSetupLog(id string, run supervisor.SetupRun) {
	w, err := ps.st.files.AppendTranscript(id)
	if err != nil {
		ps.st.log.Warn("write the setup's output to the transcript", "session", id, "err", err)
		return
	}
	defer w.Close()
	if _, err := io.WriteString(w, run.Log()); err != nil {
		ps.st.log.Warn("write the setup's output to the transcript", "session", id, "err", err)
	}
}
