package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	if w := envWarnings(cfg, "darwin", on("git", "tmux", "claude", "aider")); len(w) != 0 {
		t.Errorf("warnings with every tool there: %q", w)
	}
	w := strings.Join(envWarnings(cfg, "darwin", on("git")), "\n")
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
	if w := strings.Join(envWarnings(cfg, "linux", on("git", "claude", "aider")), "\n"); strings.Contains(w, "instead") {
		t.Errorf("linux warns of a pty fallback:\n%s", w)
	}
	if w := strings.Join(envWarnings(cfg, "linux", on("tmux", "claude", "aider")), "\n"); !strings.Contains(w, "git is not on the station's PATH") {
		t.Errorf("no warning without git:\n%s", w)
	}
}
