package daemon

import (
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/agentfind"
	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/config"

	"github.com/buildstation/buildstation/supervisor"
)

func TestMergePath(t *testing.T) {
	got, changed := mergePath("/usr/bin:/bin", "/opt/homebrew/bin:/usr/bin:/Users/a/.local/bin")
	if want := "/usr/bin:/bin:/opt/homebrew/bin:/Users/a/.local/bin"; got != want || !changed {
		t.Errorf("mergePath = %q %v, want %q true", got, changed, want)
	}
	if _, changed := mergePath("/a:/b", "/b:/a"); changed {
		t.Error("nothing new, yet changed")
	}
}

// A station started with only /usr/bin:/bin (launchd, env -i) takes the
// recorded PATH: the agent in ~/.local/bin is found.
func TestAdoptRecordedPath(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, service.RecordedPathName), []byte("/Users/a/.local/bin:/opt/homebrew/bin:/usr/bin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	if got := adoptRecordedPath(home); got == "" {
		t.Fatal("the recorded PATH was not adopted")
	}
	if got, want := os.Getenv("PATH"), "/usr/bin:/bin:/Users/a/.local/bin:/opt/homebrew/bin"; got != want {
		t.Errorf("PATH = %q, want %q", got, want)
	}
	if got := adoptRecordedPath(t.TempDir()); got != "" {
		t.Errorf("a home without a recorded PATH adopted %q", got)
	}
}

func TestEnvWarnings(t *testing.T) {
	on := func(found ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, f := range found {
				if f == name {
					return "/x/" + name, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	cfg := &config.Config{
		Agents: map[string]config.Agent{"claude": {Name: "claude", Command: []string{"claude"}, Profile: "claude"}},
		Projects: []config.Project{
			{Repo: supervisor.Repo{Name: "web"}, Agent: "claude", Settings: config.Settings{Backend: "pty"}},
			{Repo: supervisor.Repo{Name: "api"}, Command: []string{"aider"}, Settings: config.Settings{Backend: "tmux"}, Overrides: []string{"backend"}},
		},
	}
	// Everything there: nothing to say.
	if w := warn(cfg, "darwin", on("git", "tmux", "claude", "aider")); len(w) != 0 {
		t.Errorf("warnings with every tool there: %q", w)
	}
	w := strings.Join(warn(cfg, "darwin", on("git")), "\n")
	for _, want := range []string{
		`project web: its agent "claude" is not on the station's PATH`,
		`project api: its agent "aider" is not on the station's PATH`,
		"project api uses the tmux backend but tmux is not on the station's PATH",
		"tmux is not on the station's PATH, so sessions run in the pty backend instead",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	// On Linux pty is the plain default: no fallback to speak of.
	if w := strings.Join(warn(cfg, "linux", on("git", "claude", "aider")), "\n"); strings.Contains(w, "instead") {
		t.Errorf("linux warns of a pty fallback:\n%s", w)
	}
	if w := strings.Join(warn(cfg, "linux", on("tmux", "claude", "aider")), "\n"); !strings.Contains(w, "git is not on the station's PATH") {
		t.Errorf("no warning without git:\n%s", w)
	}
}

// warn is envWarnings without probing for agents off PATH.
func warn(cfg *config.Config, goos string, lookPath func(string) (string, error)) []string {
	w, _ := envWarnings(cfg, goos, lookPath, finder{})
	return w
}

// An agent off PATH is found where its installer put it, said in status,
// and its folder goes on the station's PATH; a placeholder is said with
// how to finish the install; a placeholder on PATH too.
func TestEnvWarningsProbe(t *testing.T) {
	cfg := &config.Config{
		Agents:   map[string]config.Agent{"claude": {Name: "claude", Command: []string{"claude"}, Profile: "claude"}, "codex": {Name: "codex", Command: []string{"codex"}, Profile: "codex"}},
		Projects: []config.Project{{Repo: supervisor.Repo{Name: "web"}, Agent: "claude"}, {Repo: supervisor.Repo{Name: "api"}, Agent: "codex"}},
	}
	files := map[string]string{
		"/home/ada/.local/bin/claude":     "\x7fELF",
		"/home/ada/.npm-global/bin/codex": "placeholder",
		"/usr/bin/git":                    "\x7fELF",
	}
	fs := finderOver(files, agentfind.Env{GOOS: "linux", Home: "/home/ada"})
	w, dirs := envWarnings(cfg, "linux", func(n string) (string, error) {
		if n == "git" {
			return "/usr/bin/git", nil
		}
		return "", errors.New("not found")
	}, fs)
	all := strings.Join(w, "\n")
	for _, want := range []string{
		`project web: its agent "claude" is not on the station's PATH; using /home/ada/.local/bin/claude (Claude Code's native installer)`,
		`project api: its agent "codex" is not on the station's PATH, and /home/ada/.npm-global/bin/codex (from npm's global prefix (~/.npm-global)) is not a program but a 11-byte placeholder: the install of codex did not finish`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if len(dirs) != 1 || dirs[0] != "/home/ada/.local/bin" {
		t.Errorf("dirs = %q, want the native installer's folder alone", dirs)
	}
	// On PATH, but a placeholder.
	w, _ = envWarnings(cfg, "linux", func(n string) (string, error) { return "/home/ada/.npm-global/bin/" + n, nil }, fs)
	if all := strings.Join(w, "\n"); !strings.Contains(all, "project api: its agent /home/ada/.npm-global/bin/codex is not a program but a 11-byte placeholder") {
		t.Errorf("a placeholder on PATH:\n%s", all)
	}
}

// finderOver is finder over an in-memory file tree.
func finderOver(files map[string]string, env agentfind.Env) finder {
	fsys := memFS(files)
	return finder{
		find:  func(name string) (agentfind.Found, bool) { return agentfind.Find(fsys, env, name) },
		check: func(path, name string) error { return agentfind.Check(fsys, env.GOOS, path, name) },
	}
}

type memFS map[string]string

func (m memFS) Stat(p string) (iofs.FileInfo, error) {
	d, ok := m[p]
	if !ok {
		return nil, iofs.ErrNotExist
	}
	return memInfo(len(d)), nil
}

func (m memFS) Head(p string, n int) ([]byte, error) {
	d, ok := m[p]
	if !ok {
		return nil, iofs.ErrNotExist
	}
	return []byte(d[:min(n, len(d))]), nil
}

type memInfo int

func (i memInfo) Name() string        { return "" }
func (i memInfo) Size() int64         { return int64(i) }
func (i memInfo) Mode() iofs.FileMode { return 0o755 }
func (i memInfo) ModTime() time.Time  { return time.Time{} }
func (i memInfo) IsDir() bool         { return false }
func (i memInfo) Sys() any            { return nil }
