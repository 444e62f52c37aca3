package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/config"
)

// adoptRecordedPath adds the PATH `service install` recorded in the home
// (the user's login shell's, plus Homebrew's: service.CapturePath) to
// this process's own: a station started by launchd, by a tray opened from
// the Finder or by `env -i` has only /usr/bin:/bin and would not find
// claude, tmux or git. The station's own PATH stays first. It returns the
// recorded file's path when it added anything.
func adoptRecordedPath(home string) string {
	file := filepath.Join(home, service.RecordedPathName)
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	merged, changed := mergePath(os.Getenv("PATH"), strings.TrimSpace(string(b)))
	if !changed {
		return ""
	}
	os.Setenv("PATH", merged)
	return file
}

// mergePath appends to own the folders of recorded it lacks.
func mergePath(own, recorded string) (string, bool) {
	sep := string(os.PathListSeparator)
	have := map[string]bool{}
	var parts []string
	for _, p := range strings.Split(own, sep) {
		if p != "" && !have[p] {
			have[p] = true
			parts = append(parts, p)
		}
	}
	changed := false
	for _, p := range strings.Split(recorded, sep) {
		if p != "" && !have[p] {
			have[p] = true
			parts = append(parts, p)
			changed = true
		}
	}
	return strings.Join(parts, sep), changed
}

// envWarnings are the tools the config needs that are not on PATH, each
// in one sentence that says what happens and what to do. lookPath is
// exec.LookPath outside tests.
func envWarnings(cfg *config.Config, goos string, lookPath func(string) (string, error)) []string {
	var out []string
	add := func(format string, a ...any) {
		if w := fmt.Sprintf(format, a...); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	fix := "install it or add its folder to PATH, then restart the station (on macOS: buildstation service install records your login shell's PATH)"
	if _, err := lookPath("git"); err != nil {
		add("git is not on the station's PATH: tasks get no worktrees and gates cannot run; %s", fix)
	}
	_, tmuxErr := lookPath("tmux")
	for _, p := range cfg.Projects {
		backendSet := slices.Contains(p.Overrides, "backend")
		switch {
		case p.Settings.Backend == "tmux" && tmuxErr != nil:
			add("project %s uses the tmux backend but tmux is not on the station's PATH: its sessions cannot start; %s", p.Name, fix)
		case goos == "darwin" && p.Settings.Backend == "pty" && !backendSet && tmuxErr != nil:
			// osdefaults left the default at pty: it found no tmux.
			add("tmux is not on the station's PATH, so sessions run in the pty backend instead (they end with the station); %s, or set backend = \"pty\" to choose it", fix)
		}
		a, err := cfg.AgentFor(p)
		if err != nil || len(a.Command) == 0 {
			continue
		}
		prog := a.Command[0]
		if filepath.IsAbs(prog) || strings.ContainsAny(prog, `/\`) {
			if _, err := os.Stat(prog); err != nil {
				add("project %s: its agent %s does not exist; fix the project's agent command", p.Name, prog)
			}
			continue
		}
		if _, err := lookPath(prog); err != nil {
			add("project %s: its agent %q is not on the station's PATH: its tasks will be blocked; %s", p.Name, prog, fix)
		}
	}
	return out
}

// goos is runtime.GOOS; a variable so tests can ask as another OS.
var goos = runtime.GOOS
