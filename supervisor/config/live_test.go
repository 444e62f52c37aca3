package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A fresh home gets a config.toml that shows every default and sets none:
// all it holds is an empty [defaults] table, so a default changed in code
// reaches this user.
func TestFirstRunConfigSetsNoDefaults(t *testing.T) {
	home := t.TempDir()
	cfg, err := Load(home, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(home, FileConfig))
	if err != nil {
		t.Fatal(err)
	}
	tree, _, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"defaults": map[string]any{}}; !reflect.DeepEqual(tree, want) {
		t.Errorf("the first-run config.toml sets %v; want nothing but an empty [defaults]", tree)
	}
	for _, k := range Keys {
		if k.Default != "" && !strings.Contains(string(data), "# "+k.Name+" = "+k.Default) {
			t.Errorf("the first-run config.toml does not show %s's default %s", k.Name, k.Default)
		}
	}
	if cfg.Migrated != "" {
		t.Errorf("a first run migrated: %s", cfg.Migrated)
	}
	again, err := Load(home, Platform{})
	if err != nil || again.Migrated != "" {
		t.Errorf("a second start: %v, migrated %q", err, again.Migrated)
	}
}

// What the first-run file shows as a default is the default: the same file
// with every shown default set parses to the same Config as an empty one.
func TestShownDefaultsAreTheDefaults(t *testing.T) {
	var b strings.Builder
	for _, table := range []string{"", "defaults", "hooks"} {
		if table != "" {
			b.WriteString("[" + table + "]\n")
		}
		for _, k := range Keys {
			if k.Table == table && k.Default != "" {
				b.WriteString(k.Name + " = " + k.Default + "\n")
			}
		}
	}
	// A project that writes each shown default, and one that writes none.
	project := "[[projects]]\nname = \"web\"\npath = '" + t.TempDir() + "'\n"
	b.WriteString(project)
	for _, k := range Keys {
		if k.Table == "projects" && k.Default != "" {
			b.WriteString(k.Name + " = " + k.Default + "\n")
		}
	}
	for _, k := range Keys {
		if k.Default != "" && k.Table != "" && k.Table != "defaults" && k.Table != "hooks" && k.Table != "projects" {
			t.Errorf("%s.%s has a default this test does not check", k.Table, k.Name)
		}
	}
	set, err := Parse("/h/config.toml", []byte(b.String()), Platform{})
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	empty, err := Parse("/h/config.toml", []byte(project), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	set.Projects[0].Written = nil // what the file writes, not what applies
	empty.Projects[0].Written = nil
	if !reflect.DeepEqual(set, empty) {
		t.Errorf("the shown defaults parse to\n%+v\nthe code's defaults are\n%+v", set, empty)
	}
	p := empty.Projects[0]
	if p.Concurrency != 1 || p.ReviewRounds != 3 || p.Review || p.SetupTimeout != 10*time.Minute {
		t.Errorf("a project that sets nothing: concurrency %d, review_rounds %d, review %v, setup_timeout %s", p.Concurrency, p.ReviewRounds, p.Review, p.SetupTimeout)
	}
	// The fallback of a Repo made without config.toml.
	if p.SetupTimeout != supervisor.DefaultSetupTimeout {
		t.Errorf("setup_timeout's declared default %s is not supervisor.DefaultSetupTimeout %s", p.SetupTimeout, supervisor.DefaultSetupTimeout)
	}
}

// A config.toml an earlier version wrote, with the literal defaults set, is
// migrated once: the lines that only repeat a written default are commented
// out (their comments and every other line kept), the file says so, Load
// says so for the log, and a second start changes nothing. What the user
// changed survives, and so does a project's own setting.
func TestOldLiteralDefaultsAreMigratedOnce(t *testing.T) {
	old, err := os.ReadFile("testdata/config-before-live-defaults.toml")
	if err != nil {
		t.Fatal(err)
	}
	home, project := t.TempDir(), t.TempDir()
	text := strings.Replace(string(old), `block_window = "5m"`, `block_window = "7m"`, 1)
	text = strings.Replace(text, DefaultNudge, "Note: I noticed you've been silent for 5 minutes. If you've finished the task — run git commit and call complete_task with a summary. If you're still working, just continue.", 1)
	text += "\n[[projects]]\nname = \"web\"\npath = '" + project + "'\nidle_window = \"5m\"\n"
	path := filepath.Join(home, FileConfig)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}

	cfg, err := Load(home, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	for _, line := range []string{
		`# max_sessions = 4                    # sessions running at once, across all projects`,
		`# idle_window = "5m"                  # console silence that starts the liveness check`,
		`# nudge = "Note: I noticed you've been silent for 5 minutes.`,
		`block_window = "7m"                 # still no sign of life`, // the user's own, set
		"\nidle_window = \"5m\"\n",   // the project's own, set
		`# The nudge may use {idle}`, // comments kept
		liveMark,
	} {
		if !strings.Contains(string(got), line) {
			t.Errorf("the migrated file lacks %q:\n%s", line, got)
		}
	}
	if cfg.Defaults.Nudge != DefaultNudge || cfg.Defaults.BlockWindow != 7*time.Minute || cfg.Projects[0].Overrides[0] != "idle_window" {
		t.Errorf("after the migration: nudge %q, block_window %s, project overrides %v", cfg.Defaults.Nudge, cfg.Defaults.BlockWindow, cfg.Projects[0].Overrides)
	}
	for _, key := range []string{"max_sessions", "defaults.agent", "defaults.idle_window", "defaults.nudge", "defaults.permission_mode"} {
		if !strings.Contains(cfg.Migrated, key) {
			t.Errorf("Migrated = %q; want it to name %s", cfg.Migrated, key)
		}
	}
	if strings.Contains(cfg.Migrated, "block_window") {
		t.Errorf("Migrated = %q names the user's own block_window", cfg.Migrated)
	}

	// A person who now sets a default on purpose keeps it: the file is
	// migrated once.
	again := strings.Replace(string(got), `# idle_window = "5m"`, `idle_window = "5m"`, 1)
	if err := os.WriteFile(path, []byte(again), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(home, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(path); string(now) != again || cfg.Migrated != "" {
		t.Errorf("a second start changed the file (%v) or migrated %q", string(now) != again, cfg.Migrated)
	}
}
