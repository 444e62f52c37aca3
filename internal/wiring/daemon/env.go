package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/platform/agentfind"
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

// finder finds an agent CLI off the station's PATH, where its installer
// puts it (platform/agentfind), and tells a program from an unfinished
// install's placeholder. Its zero value finds nothing and checks nothing.
type finder struct {
	find  func(name string) (agentfind.Found, bool)
	check func(path, name string) error
}

// osFinder is finder over this machine's files.
func osFinder(goos string) finder {
	env := agentfind.FromOS(goos)
	return finder{
		find:  func(name string) (agentfind.Found, bool) { return agentfind.Find(agentfind.OS{}, env, name) },
		check: func(path, name string) error { return agentfind.Check(agentfind.OS{}, goos, path, name) },
	}
}

// envWarnings are the tools the config needs that are not on PATH, each
// in one sentence that says what happens and what to do, and the folders
// of agents found where their installers put them, for the station's
// PATH. lookPath is exec.LookPath outside tests.
func envWarnings(cfg *config.Config, goos string, lookPath func(string) (string, error), f finder) (out, dirs []string) {
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
		if path, err := lookPath(prog); err == nil {
			if f.check != nil {
				if err := f.check(path, prog); err != nil {
					add("project %s: its agent %v; its tasks will be blocked until then", p.Name, err)
				}
			}
			continue
		}
		found, ok := agentfind.Found{}, false
		if f.find != nil {
			found, ok = f.find(prog)
		}
		switch {
		case ok && found.Problem != nil:
			add("project %s: its agent %q is not on the station's PATH, and %s (from %s) %v; its tasks will be blocked until then", p.Name, prog, found.Path, found.Source, trimPath(found.Problem, found.Path))
		case ok:
			add("project %s: its agent %q is not on the station's PATH; using %s (%s), whose folder the station added to its PATH", p.Name, prog, found.Path, found.Source)
			if d := agentfind.Dir(goos, found.Path); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		default:
			add("project %s: its agent %q is not on the station's PATH: its tasks will be blocked; %s", p.Name, prog, fix)
		}
	}
	return out, dirs
}

// trimPath is a Check error without the path it starts with, when the
// sentence has named it already.
func trimPath(err error, path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), path), " ")
}

// addToPath appends dirs to this process's PATH, which every session inherits.
func addToPath(dirs []string) {
	if len(dirs) == 0 {
		return
	}
	merged, _ := mergePath(os.Getenv("PATH"), strings.Join(dirs, string(os.PathListSeparator)))
	os.Setenv("PATH", merged)
}

// goos is runtime.GOOS; a variable so tests can ask as another OS.
var goos = runtime.GOOS
