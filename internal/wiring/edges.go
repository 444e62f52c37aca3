package wiring

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/internal/noticefollow"
	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/platform/evidence"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/notifier"
	"github.com/buildstation/buildstation/platform/tmux"
	"github.com/buildstation/buildstation/supervisor"
)

// logNotifier is the station's Notifier: the log. A person sees notices
// elsewhere: the tray shows them from the event stream, and while no tray
// does, the station shows its own through desktop below.
func logNotifier(log *slog.Logger) supervisor.Notifier {
	return supervisor.LogNotifier{Log: log}
}

// desktop is the notifier a station uses for its own notices while no tray
// shows them: the same one the tray uses, whose click runs "buildstation
// open" (which starts a tray, or asks the running one, to open the session).
// A box with no desktop session gets none.
func desktop(log *slog.Logger) func(home string) (noticefollow.Desktop, error) {
	return func(home string) (noticefollow.Desktop, error) {
		if !notifier.DesktopSession() {
			return nil, errors.New("no desktop session here")
		}
		self, _ := os.Executable()
		open := func(id string) {
			if self == "" {
				return
			}
			cmd := childproc.Command(self, "--home", home, "open", id)
			if err := cmd.Start(); err != nil {
				log.Warn("open the session a notification named", "session", id, "err", err)
				return
			}
			go cmd.Wait()
		}
		return notifier.New(notifier.Options{AppName: "Build Station", Icon: assets.Icon.Content(), Self: self, Open: open, Log: log,
			Decide: notifier.DecideWith(self, home, log), LinkKey: notifier.LinkKeyOf(home)})
	}
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
		sp := tmux.New(filepath.Join(home, tmux.SocketName))
		// Each session's output pipe is handed over by a short process
		// tmux starts: the light command line when it stands beside this
		// app (a third of the app's start), else this program.
		if self, err := os.Executable(); err == nil {
			sp.Helper = faces.CLI(self)
		}
		m["tmux"] = sp
	}
	return m
}
