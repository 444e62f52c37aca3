package main

import (
	"log/slog"

	"github.com/buildstation/buildstation/platform/evidence"
	"github.com/buildstation/buildstation/platform/gitwt"
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
