package main

import (
	"log/slog"
	"path/filepath"

	"github.com/buildstation/buildstation/platform/evidence"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/tmux"
	"github.com/buildstation/buildstation/supervisor"
)

// notifier is how the station shows notices on this build: the tray's
// clickable notifications when it runs, the log otherwise.
func notifier(log *slog.Logger) supervisor.Notifier {
	return supervisor.LogNotifier{Log: log}
}

// probers are the pull layers of evidence the watchdog consults when a
// console has been silent for a window: commits, then descendants' CPU.
func probers() []supervisor.Prober {
	return []supervisor.Prober{
		evidence.NewCommits(evidence.CommitOptions{}),
		evidence.NewCPU(evidence.CPUOptions{Share: evidence.DefaultCPUShare}),
	}
}

// workspaces gives each task of a git project its own worktree.
func workspaces(cache supervisor.GateCache, log *slog.Logger) supervisor.Workspaces {
	return gitwt.New(cache, log)
}

// spawners are the session backends besides the pty: tmux, when it is
// installed, on a server of the station's own whose socket is in its home.
func spawners(home string) map[string]supervisor.Spawner {
	m := map[string]supervisor.Spawner{}
	if tmux.Available() {
		m["tmux"] = tmux.New(filepath.Join(home, tmux.SocketName))
	}
	return m
}
