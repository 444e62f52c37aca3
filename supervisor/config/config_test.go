package config

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// documentedDefaults are [defaults] as docs/contract.md says them.
var documentedDefaults = Settings{Agent: "claude", Backend: "pty", IdleWindow: 5 * time.Minute, BlockWindow: 5 * time.Minute,
	ReviewIdleWindow: 10 * time.Minute, CPUAlive: 0.10, Breaker: Breaker{Count: 3, Within: 10 * time.Minute}, Nudge: DefaultNudge}

func TestDefaultTextParsesToDefaults(t *testing.T) {
	cfg, err := Parse("/h/config.toml", []byte(DefaultText()), Platform{})
	if err != nil {
		t.Fatalf("Parse(DefaultText(), Platform{}): %v", err)
	}
	want := &Config{
		Path:          "/h/config.toml",
		MaxSessions:   4,
		Lease:         60 * time.Second,
		StopGrace:     2 * time.Minute,
		UpdateCheck:   true,
		TranscriptMax: 64 << 20,
		Defaults:      documentedDefaults,
		Agents:        builtinAgents(),
		Hooks:         Hooks{Timeout: 30 * time.Second},
		Prices:        DefaultPrices,
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("Parse(DefaultText(), Platform{}) =\n%+v\nwant\n%+v", cfg, want)
	}
	// Spot-check the documented values, not only self-consistency.
	d := cfg.Defaults
	if d.Agent != "claude" || d.IdleWindow != 5*time.Minute || d.BlockWindow != 5*time.Minute ||
		d.ReviewIdleWindow != 10*time.Minute || d.CPUAlive != 0.10 ||
		d.Breaker != (Breaker{Count: 3, Within: 10 * time.Minute}) || d.Nudge != DefaultNudge || d.PermissionMode != "" {
		t.Errorf("defaults = %+v", d)
	}
	if !slices.Contains(backends, d.Backend) {
		t.Errorf("backend = %q", d.Backend)
	}
	for _, name := range []string{"claude", "codex", "gemini"} {
		a := cfg.Agents[name]
		if !slices.Equal(a.Command, []string{name}) || a.Profile != name || a.Name != name {
			t.Errorf("built-in agent %s = %+v", name, a)
		}
	}
}

func TestEmptyFileIsDefaults(t *testing.T) {
	cfg, err := Parse("/h/config.toml", nil, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxSessions != 4 || cfg.Defaults != documentedDefaults || len(cfg.Agents) != 3 || len(cfg.Projects) != 0 {
		t.Errorf("Parse(empty, Platform{}) = %+v", cfg)
	}
}

func TestLoadCreatesDefaultOnFirstRun(t *testing.T) {
	home := filepath.Join(t.TempDir(), "new", "home")
	cfg, err := Load(home, Platform{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	path := filepath.Join(home, FileConfig)
	if cfg.Path != path {
		t.Errorf("Path = %q, want %q", cfg.Path, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != DefaultText() {
		t.Errorf("written file differs from DefaultText()")
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm()&^0o644 != 0 {
			t.Errorf("config mode = %v, want at most 0644", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(home); fi.Mode().Perm() != 0o700 {
			t.Errorf("home mode = %v, want 0700", fi.Mode().Perm())
		}
	}
	if cfg.MaxSessions != 4 || len(cfg.Projects) != 0 {
		t.Errorf("Load = %+v", cfg)
	}
}

func TestLoadKeepsExistingFile(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileConfig)
	text := "max_sessions = 2\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(home, Platform{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.MaxSessions != 2 {
		t.Errorf("MaxSessions = %d, want 2", cfg.MaxSessions)
	}
	if data, _ := os.ReadFile(path); string(data) != text {
		t.Errorf("Load rewrote the file: %q", data)
	}
}

func TestLoadReportsBadFileAndChangesNothing(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, FileConfig)
	text := "max_sessions = 2\nbogus = 1\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(home, Platform{})
	if cfg != nil || err == nil || !strings.Contains(err.Error(), path+":2: bogus:") {
		t.Fatalf("Load = %v, %v; want nil and an error at %s:2", cfg, err, path)
	}
	if data, _ := os.ReadFile(path); string(data) != text {
		t.Errorf("Load changed the file: %q", data)
	}
}

func TestProjectOverrides(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, dir, "web", "api")
	text := `
[defaults]
idle_window = "2m"
nudge = "wake up"

[agents.aider]
command = ["aider", "--yes"]

[[projects]]
name = "web"
path = "web"
idle_window = "15m"
backend = "tmux"
breaker = "off"
cpu_alive = "25%"
permission_mode = "acceptEdits"
agent = "aider"
review = true
concurrency = 2
gate = "make test"
base = "main"
stations = ["buildbox"]

[[projects]]
name = "api"
path = "api"
review_idle_window = "20m"
breaker = "5 in 1h"
worktree_root = "wt"
`
	cfg := mustParse(t, filepath.Join(dir, "config.toml"), text)
	web, ok := cfg.Project("web")
	if !ok {
		t.Fatal("no project web")
	}
	ws := web.Settings
	if ws.IdleWindow != 15*time.Minute || ws.Backend != "tmux" || ws.Breaker != (Breaker{}) ||
		ws.CPUAlive != 0.25 || ws.PermissionMode != "acceptEdits" || ws.Agent != "aider" || web.Agent != "aider" {
		t.Errorf("web settings = %+v", ws)
	}
	if ws.Nudge != "wake up" || ws.BlockWindow != 5*time.Minute || ws.ReviewIdleWindow != 10*time.Minute {
		t.Errorf("web did not inherit the rest: %+v", ws)
	}
	wantOver := []string{"agent", "backend", "breaker", "cpu_alive", "idle_window", "permission_mode"}
	if !slices.Equal(web.Overrides, wantOver) {
		t.Errorf("web overrides = %v, want %v", web.Overrides, wantOver)
	}
	if !web.Review || web.Concurrency != 2 || web.Gate != "make test" || web.Base != "main" ||
		!slices.Equal(web.Stations, []string{"buildbox"}) {
		t.Errorf("web = %+v", web)
	}
	if want := filepath.Join(dir, "web", ".buildstation", "worktrees"); web.WorktreeRoot != want {
		t.Errorf("web worktree root = %q, want %q", web.WorktreeRoot, want)
	}

	api, _ := cfg.Project("api")
	as := api.Settings
	if as.IdleWindow != 2*time.Minute || as.Nudge != "wake up" || as.Agent != "claude" || api.Agent != "claude" ||
		as.ReviewIdleWindow != 20*time.Minute || as.Breaker != (Breaker{Count: 5, Within: time.Hour}) {
		t.Errorf("api settings = %+v", as)
	}
	if !slices.Equal(api.Overrides, []string{"breaker", "review_idle_window"}) {
		t.Errorf("api overrides = %v", api.Overrides)
	}
	if api.Concurrency != 1 || api.Review {
		t.Errorf("api = %+v", api)
	}
	if want := filepath.Join(dir, "api", "wt"); api.WorktreeRoot != want {
		t.Errorf("api worktree root = %q, want %q", api.WorktreeRoot, want)
	}
	if cfg.Defaults.IdleWindow != 2*time.Minute || cfg.Defaults.Backend != "pty" {
		t.Errorf("a project override leaked into defaults: %+v", cfg.Defaults)
	}
	if _, ok := cfg.Project("nope"); ok {
		t.Error("Project(nope) found something")
	}
}

func TestProjectPathResolution(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, dir, "conf", "src/web", "abs")
	abs := filepath.Join(dir, "abs")
	tests := []struct{ path, want string }{
		{"../src/web", filepath.Join(dir, "src", "web")},
		{".", filepath.Join(dir, "conf")},
		{abs, abs},
		{abs + "/", abs},
	}
	for _, tt := range tests {
		text := "[[projects]]\nname = \"p\"\npath = " + quote(tt.path) + "\n"
		cfg := mustParse(t, filepath.Join(dir, "conf", "config.toml"), text)
		if got := cfg.Projects[0].Path; got != tt.want {
			t.Errorf("path %q resolved to %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestAgentFor(t *testing.T) {
	dir := t.TempDir()
	text := `
[agents.claude]
args = ["--verbose"]

[agents.mine]
command = ["python", "agent.py"]
env = { MODE = "fast" }

[agents.codex2]
command = ["codex"]
profile = "codex"

[[projects]]
name = "builtin"
path = "."
args = ["--model", "x"]

[[projects]]
name = "custom"
path = "."
agent = "mine"

[[projects]]
name = "inline"
path = "."
command = ["sh", "run.sh"]
args = ["-x"]

[[projects]]
name = "profiled"
path = "."
agent = "codex2"
`
	cfg := mustParse(t, filepath.Join(dir, "config.toml"), text)
	tests := []struct {
		project string
		want    Agent
	}{
		{"builtin", Agent{Name: "claude", Command: []string{"claude"}, Args: []string{"--verbose", "--model", "x"}, Profile: "claude"}},
		{"custom", Agent{Name: "mine", Command: []string{"python", "agent.py"}, Env: map[string]string{"MODE": "fast"}, Profile: "generic"}},
		{"inline", Agent{Command: []string{"sh", "run.sh"}, Args: []string{"-x"}, Profile: "generic"}},
		{"profiled", Agent{Name: "codex2", Command: []string{"codex"}, Profile: "codex"}},
	}
	for _, tt := range tests {
		p, _ := cfg.Project(tt.project)
		got, err := cfg.AgentFor(p)
		if err != nil {
			t.Errorf("AgentFor(%s): %v", tt.project, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("AgentFor(%s) = %#v, want %#v", tt.project, got, tt.want)
		}
		// The result is the caller's: changing it must not change the Config.
		got.Command[0] = "changed"
		got.Args = append(got.Args, "more")
		if again, _ := cfg.AgentFor(p); !reflect.DeepEqual(again, tt.want) {
			t.Errorf("AgentFor(%s) after changing a result = %#v", tt.project, again)
		}
	}
	if _, err := cfg.AgentFor(Project{Repo: supervisor.Repo{Name: "x"}, Agent: "ghost"}); err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("AgentFor(unknown agent) error = %v", err)
	}
}

func mustParse(t *testing.T, path, text string) *Config {
	t.Helper()
	cfg, err := Parse(path, []byte(text), Platform{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return cfg
}

func mkdir(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// quote writes s as a TOML literal string, which needs no escaping for
// Windows paths.
func quote(s string) string { return "'" + s + "'" }

func TestHooks(t *testing.T) {
	cfg, err := Parse("/h/config.toml", []byte(`[hooks]
on_nudge = ["ntfy", "publish", "my builds"]
on_block = ["/bin/tell", "$HOME; rm -rf ~"]
on_permission = ["notify-send"]
on_done = ["done.sh"]
timeout = "5s"
`), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	want := Hooks{OnNudge: []string{"ntfy", "publish", "my builds"}, OnBlock: []string{"/bin/tell", "$HOME; rm -rf ~"},
		OnPermission: []string{"notify-send"}, OnDone: []string{"done.sh"}, Timeout: 5 * time.Second}
	if !reflect.DeepEqual(cfg.Hooks, want) {
		t.Errorf("Hooks = %+v, want %+v", cfg.Hooks, want)
	}
	cfg, err = Parse("/h/config.toml", []byte("[hooks]\n"), Platform{})
	if err != nil || cfg.Hooks.Timeout != DefaultHookTimeout || cfg.Hooks.OnDone != nil {
		t.Errorf("empty [hooks] = %+v, %v", cfg.Hooks, err)
	}
}

// The machine's defaults (config.Platform, found by platform/osdefaults)
// fill what the file leaves out; the file still wins.
func TestPlatformDefaultBackend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	text := "[[projects]]\nname = \"a\"\npath = '" + dir + "'\n[[projects]]\nname = \"b\"\npath = '" + dir + "'\nbackend = \"pty\"\n"
	cfg, err := Parse(path, []byte(text), Platform{Backend: "tmux"})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cfg.Project("a")
	b, _ := cfg.Project("b")
	if cfg.Defaults.Backend != "tmux" || a.Settings.Backend != "tmux" || b.Settings.Backend != "pty" || cfg.Platform.Backend != "tmux" {
		t.Errorf("defaults %q, a %q, b %q, platform %+v; want tmux, tmux, pty, tmux", cfg.Defaults.Backend, a.Settings.Backend, b.Settings.Backend, cfg.Platform)
	}
	if cfg, _ := Parse(path, []byte(text), Platform{}); cfg.Defaults.Backend != "pty" {
		t.Errorf("no machine preference: default backend %q, want pty", cfg.Defaults.Backend)
	}
}

// A project's setup and its timeout are read; the timeout is ten minutes
// when not set.
func TestProjectSetupKeys(t *testing.T) {
	dir := t.TempDir()
	text := "[[projects]]\nname = \"a\"\npath = '" + dir + "'\nsetup = \"npm ci\"\nsetup_timeout = \"90s\"\n" +
		"[[projects]]\nname = \"b\"\npath = '" + dir + "'\n"
	cfg, err := Parse("/h/config.toml", []byte(text), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cfg.Project("a")
	b, _ := cfg.Project("b")
	if a.Setup != "npm ci" || a.SetupTimeout != 90*time.Second {
		t.Errorf("project a: setup %q, timeout %v", a.Setup, a.SetupTimeout)
	}
	if b.Setup != "" || b.SetupTimeout != 10*time.Minute {
		t.Errorf("project b: setup %q, timeout %v; want none and 10m", b.Setup, b.SetupTimeout)
	}
	_, err = Parse("/h/config.toml", []byte("[[projects]]\nname = \"a\"\npath = '"+dir+"'\nsetup_timeout = \"soon\"\n"), Platform{})
	if err == nil || !strings.Contains(err.Error(), "setup_timeout") {
		t.Errorf("a bad setup_timeout: %v", err)
	}
}

// A project's review_rounds bounds the automatic rounds a pull request's
// review or checks may start: three when not set, 0 for none, never
// negative.
func TestProjectReviewRounds(t *testing.T) {
	dir := t.TempDir()
	text := "[[projects]]\nname = \"a\"\npath = '" + dir + "'\nreview_rounds = 5\n" +
		"[[projects]]\nname = \"b\"\npath = '" + dir + "'\n" +
		"[[projects]]\nname = \"c\"\npath = '" + dir + "'\nreview_rounds = 0\n"
	cfg, err := Parse("/h/config.toml", []byte(text), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"a": 5, "b": 3, "c": 0} {
		if p, _ := cfg.Project(name); p.ReviewRounds != want {
			t.Errorf("project %s: review_rounds %d, want %d", name, p.ReviewRounds, want)
		}
	}
	_, err = Parse("/h/config.toml", []byte("[[projects]]\nname = \"a\"\npath = '"+dir+"'\nreview_rounds = -1\n"), Platform{})
	if err == nil || !strings.Contains(err.Error(), "review_rounds") {
		t.Errorf("a negative review_rounds: %v", err)
	}
}
