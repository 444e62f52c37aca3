package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAddProjectKeepsTheFileAndValidates(t *testing.T) {
	dir := t.TempDir()
	web := filepath.Join(dir, "my web")
	if err := os.Mkdir(web, 0o700); err != nil {
		t.Fatal(err)
	}
	out, cfg, err := AddProject("/h/config.toml", []byte(DefaultText()), NewProject{Path: web, Agent: "codex"}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), DefaultText()) {
		t.Fatal("the file's own text changed")
	}
	p, ok := cfg.Project("my-web")
	if !ok || p.Path != web || p.Agent != "codex" {
		t.Fatalf("added %+v (ok %v)\n%s", p, ok, out)
	}
	api := filepath.Join(dir, "api")
	os.Mkdir(api, 0o700)
	out2, cfg2, err := AddProject("/h/config.toml", out, NewProject{Name: "api", Path: api, Command: []string{"sh", "-c", `echo "hi"`}}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cfg2.Project("api"); strings.Join(p.Command, "|") != `sh|-c|echo "hi"` {
		t.Fatalf("command %q", p.Command)
	}
	back, cfg3, err := RemoveProject("/h/config.toml", out2, "my-web", Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg3.Projects) != 1 || cfg3.Projects[0].Name != "api" {
		t.Fatalf("after rm: %+v", cfg3.Projects)
	}
	back2, _, err := RemoveProject("/h/config.toml", back, "api", Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if string(back2) != DefaultText() {
		t.Fatalf("add then rm did not give the file back:\n%s", back2)
	}
}

func TestRemoveProjectKeepsTheNextTablesComment(t *testing.T) {
	dir := t.TempDir()
	src := "max_sessions = 2\n\n[[projects]]\nname = \"a\"\npath = \"" + dir + "\"\n\n# the hooks\n[hooks]\non_done = [\"true\"]\n"
	out, _, err := RemoveProject("/h/config.toml", []byte(src), "a", Platform{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "max_sessions = 2\n\n# the hooks\n[hooks]\non_done = [\"true\"]\n"; string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestAddProjectRefusesInOneSentence(t *testing.T) {
	dir := t.TempDir()
	src := DefaultText() + "\n[[projects]]\nname = \"web\"\npath = \"" + dir + "\"\n"
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o700)
	for _, tt := range []struct {
		np   NewProject
		want string
	}{
		{NewProject{Path: filepath.Join(dir, "nope")}, "does not exist; create the folder first"},
		{NewProject{Path: file}, "is not a folder"},
		{NewProject{Path: "rel/dir"}, "not an absolute path"},
		{NewProject{Name: "web", Path: other}, `a project named "web" already exists; pass --name`},
		{NewProject{Path: dir, Name: "again"}, "is already the folder of project"},
		{NewProject{Path: other, Agent: "aider"}, `no agent named "aider"; use one of claude, codex, gemini`},
		{NewProject{Path: other, Agent: "claude", Command: []string{"x"}}, "not both"},
	} {
		_, _, err := AddProject("/h/config.toml", []byte(src), tt.np, Platform{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err %v, want %q", tt.np, err, tt.want)
			continue
		}
		if strings.Count(strings.TrimSuffix(err.Error(), "."), ". ") > 0 {
			t.Errorf("%+v: more than one sentence: %v", tt.np, err)
		}
	}
	if _, _, err := RemoveProject("/h/config.toml", []byte(src), "nope", Platform{}); err == nil || !strings.Contains(err.Error(), `no project named "nope"`) {
		t.Errorf("rm of an unknown project: %v", err)
	}
}

func TestUpdateCheckIsOnUntilTurnedOff(t *testing.T) {
	cfg, err := Parse("/h/config.toml", []byte(DefaultText()), Platform{})
	if err != nil || !cfg.UpdateCheck {
		t.Fatalf("default: %v %v", cfg, err)
	}
	cfg, err = Parse("/h/config.toml", []byte("update_check = false\n"), Platform{})
	if err != nil || cfg.UpdateCheck {
		t.Fatalf("off: %v", err)
	}
	if _, err := Parse("/h/config.toml", []byte("update_check = \"no\"\n"), Platform{}); err == nil || !strings.Contains(err.Error(), "update_check") {
		t.Fatalf("a string: %v", err)
	}
}

// The dashboard's Add project sends the windows a person changed: they go
// in the new table, checked as an edit is, and a bad one is refused with
// nothing written. Any other key project set takes goes in as its type:
// the gate, a number.
func TestAddProjectWritesItsWindows(t *testing.T) {
	dir := t.TempDir()
	out, cfg, err := AddProject("/h/config.toml", []byte(DefaultText()), NewProject{Name: "web", Path: dir,
		Settings: map[string]string{"idle_window": "15m", "block_window": " ", "review_idle_window": ""}}, Platform{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Project("web")
	if p.Settings.IdleWindow != 15*time.Minute || p.Settings.BlockWindow != cfg.Defaults.BlockWindow {
		t.Fatalf("windows %v %v", p.Settings.IdleWindow, p.Settings.BlockWindow)
	}
	if !strings.HasSuffix(string(out), "\n\n[[projects]]\nname = \"web\"\npath = \""+dir+"\"\nidle_window = \"15m\"\n") {
		t.Fatalf("table:\n%s", out)
	}
	for set, want := range map[string]string{"idle_window=soon": "idle_window", "name=api": `"name" cannot be set here`, "concurrency=two": "concurrency"} {
		k, v, _ := strings.Cut(set, "=")
		_, _, err := AddProject("/h/config.toml", []byte(DefaultText()), NewProject{Name: "web", Path: dir, Settings: map[string]string{k: v}}, Platform{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", set, err, want)
		}
	}
	out, _, err = AddProject("/h/config.toml", []byte(DefaultText()), NewProject{Name: "web", Path: dir,
		Settings: map[string]string{"gate": "make test", "concurrency": "2", "setup_timeout": "3m"}}, Platform{})
	if err != nil || !strings.HasSuffix(string(out), "path = \""+dir+"\"\nconcurrency = 2\ngate = \"make test\"\nsetup_timeout = \"3m\"\n") {
		t.Fatalf("gate and concurrency: %v\n%s", err, out)
	}
}
