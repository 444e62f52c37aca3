package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func TestEditProject(t *testing.T) {
	dir := t.TempDir()
	src := `# my config
max_sessions = 2

[[projects]]
name = "web"   # the site
path = "` + dir + `"
idle_window = "5m"
command = ["sh", "x"]

[[projects]]
name = "api"
path = "` + dir + `"
`
	out, cfg, err := EditProject("/h/config.toml", []byte(src), "api", map[string]string{"idle_window": "15m", "nudge": "wake \"up\""}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Project("api")
	if p.Settings.IdleWindow != 15*time.Minute || p.Settings.Nudge != `wake "up"` {
		t.Fatalf("api settings %+v", p.Settings)
	}
	if w, _ := cfg.Project("web"); w.Settings.IdleWindow != 5*time.Minute {
		t.Fatal("another project changed")
	}
	if !strings.Contains(string(out), "# my config") || !strings.Contains(string(out), `name = "web"   # the site`) {
		t.Fatalf("comments lost:\n%s", out)
	}
	// Replace an existing key and remove another.
	out2, cfg2, err := EditProject("/h/config.toml", out, "web", map[string]string{"idle_window": "7m", "block_window": "2m"}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := cfg2.Project("web"); w.Settings.IdleWindow != 7*time.Minute || w.Settings.BlockWindow != 2*time.Minute {
		t.Fatalf("web %+v", w.Settings)
	}
	if strings.Count(string(out2), "idle_window") != 2 {
		t.Fatalf("the old line was not replaced:\n%s", out2)
	}
	out3, cfg3, err := EditProject("/h/config.toml", out2, "web", map[string]string{"idle_window": ""}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := cfg3.Project("web"); w.Settings.IdleWindow != 5*time.Minute || strings.Count(string(out3), "idle_window") != 1 {
		t.Fatalf("removing the override did not restore the default:\n%s", out3)
	}
}

func TestEditProjectRefusesBadValues(t *testing.T) {
	src := "[[projects]]\nname = \"web\"\npath = \"" + t.TempDir() + "\"\n"
	for _, tt := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"idle_window": "5 minutes"}, "config.toml:2: projects[0].idle_window"},
		{map[string]string{"block_window": "10ms"}, "projects[0].block_window"},
		{map[string]string{"name": "api"}, `"name" cannot be changed here`},
		{map[string]string{"cpu_alive": "500%"}, "projects[0].cpu_alive"},
	} {
		_, cfg, err := EditProject("/h/config.toml", []byte(src), "web", tt.set, Platform{})
		if err == nil || cfg != nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("EditProject(%v, Platform{}) = %v, want an error naming %q", tt.set, err, tt.want)
		}
	}
	if _, _, err := EditProject("/h/config.toml", []byte(src), "nope", map[string]string{"idle_window": "1m"}, Platform{}); err == nil {
		t.Error("edited a project that does not exist")
	}
}

// project set accepts every project key: gate, agent, command,
// permission_mode, daily_budget_usd, concurrency, review, each written
// as its type wants; choosing an agent drops an inline command (which
// would win over it), and a name is not changed here.
func TestEditProjectTakesEveryProjectKey(t *testing.T) {
	dir := t.TempDir()
	src := "[[projects]]\nname = \"web\"\npath = \"" + dir + "\"\ncommand = [\"sh\", \"x\"]\n"
	set := map[string]string{"gate": "make test", "agent": "gemini", "permission_mode": "plan", "daily_budget_usd": "20",
		"concurrency": "2", "review": "true", "base": "main", "setup_timeout": "3m", "review_rounds": "1"}
	out, cfg, err := EditProject("/h/config.toml", []byte(src), "web", set, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Project("web")
	if p.Gate != "make test" || p.Settings.Agent != "gemini" || p.Command != nil || p.Settings.PermissionMode != "plan" ||
		p.Settings.DailyBudgetUSD != 20 || p.Concurrency != 2 || !p.Review || p.Base != "main" || p.ReviewRounds != 1 {
		t.Fatalf("web after project set: %+v\n%s", p, out)
	}
	out, cfg, err = EditProject("/h/config.toml", out, "web", map[string]string{"command": `aider --yes "my model"`}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cfg.Project("web"); strings.Join(p.Command, "|") != "aider|--yes|my model" {
		t.Fatalf("command %q:\n%s", p.Command, out)
	}
	for _, tt := range []struct{ key, value, want string }{
		{"name", "api", `"name" cannot be changed here`},
		{"concurrency", "two", "concurrency"},
		{"daily_budget_usd", "lots", "daily_budget_usd"},
		{"review", "maybe", "review"},
		{"colour", "red", `"colour" is not a project key`},
	} {
		if _, _, err := EditProject("/h/config.toml", out, "web", map[string]string{tt.key: tt.value}, Platform{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("project set %s=%s: %v, want an error naming %q", tt.key, tt.value, err, tt.want)
		}
	}
}

// ProjectSettings offers every key project set takes, each with the value
// the project's table writes — as project set takes it back, so a value
// saved unchanged is the same config — and the default that applies when
// it writes none.
func TestProjectSettingsOfferEveryKeyAsProjectSetTakesIt(t *testing.T) {
	dir := t.TempDir()
	src := "[defaults]\nidle_window = \"7m\"\n[[projects]]\nname = \"web\"\npath = \"" + dir + "\"\ncommand = [\"aider\", \"--model\", \"my model\"]\n" +
		"concurrency = 2\nreview = true\ndaily_budget_usd = 2.5\nsetup = \"npm ci\"\nblock_window = \"90s\"\n"
	cfg, err := Parse("/h/config.toml", []byte(src), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Project("web")
	got := map[string]supervisor.ProjectSetting{}
	var keys []string
	for _, s := range cfg.ProjectSettings(p) {
		got[s.Key] = s
		keys = append(keys, s.Key)
	}
	if !slices.Equal(keys, ProjectKeys) {
		t.Fatalf("keys %v, want ProjectKeys %v", keys, ProjectKeys)
	}
	for _, k := range Keys {
		if k.Setting && k.show == nil {
			t.Errorf("the setting %s declares no show: Edit project cannot say its default", k.Name)
		}
	}
	for k, want := range map[string][2]string{
		"command": {`aider --model "my model"`, ""}, "concurrency": {"2", "1"}, "review": {"true", "false"},
		"daily_budget_usd": {"2.5", ""}, "setup": {"npm ci", ""}, "setup_timeout": {"", "10m"},
		"idle_window": {"", "7m"}, "block_window": {"90s", "5m"}, "gate": {"", ""}, "breaker": {"", "3 in 10m"},
	} {
		if s := got[k]; s.Value != want[0] || s.Default != want[1] {
			t.Errorf("%s: value %q default %q, want %q %q", k, s.Value, s.Default, want[0], want[1])
		}
	}
	set := map[string]string{}
	for _, s := range cfg.ProjectSettings(p) {
		if s.Value != "" && s.Key != "path" {
			set[s.Key] = s.Value
		}
	}
	_, again, err := EditProject("/h/config.toml", []byte(src), "web", set, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := again.Project("web")
	if !slices.Equal(q.Command, p.Command) || q.Concurrency != 2 || !q.Review || q.Settings.DailyBudgetUSD != 2.5 || q.Settings.BlockWindow != 90*time.Second {
		t.Errorf("saved unchanged, the project is %+v", q)
	}
}
