package config

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every problem in a [[sources]] table is one error naming the file, the
// line and the key, like any other key.
func TestSourceErrors(t *testing.T) {
	const project = "[[projects]]\nname = \"web\"\npath = '{dir}'\n\n"
	tests := []struct {
		name, text string
		line       int
		key, want  string
	}{
		{"unknown kind", "[[sources]]\nkind = \"jira\"\nproject = \"web\"\n", 2, "sources[0].kind", `"jira" is not a kind of source`},
		{"no kind", "[[sources]]\nproject = \"web\"\nrepo = \"a/b\"\n", 1, "sources[0].kind", "is missing"},
		{"no project", "[[sources]]\nkind = \"github\"\nrepo = \"a/b\"\n", 1, "sources[0].project", "is missing"},
		{"unknown project", "[[sources]]\nkind = \"github\"\nproject = \"api\"\nrepo = \"a/b\"\n", 3, "sources[0].project", `"api" is not a project`},
		{"github without repo", "[[sources]]\nkind = \"github\"\nproject = \"web\"\n", 1, "sources[0].repo", "is missing"},
		{"bad repo", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"acme\"\n", 4, "sources[0].repo", "not owner/name"},
		{"github with team", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\nteam = \"ENG\"\n", 5, "sources[0].team", "for linear sources"},
		{"linear without team", "[[sources]]\nkind = \"linear\"\nproject = \"web\"\n", 1, "sources[0].team", "is missing"},
		{"linear with repo", "[[sources]]\nkind = \"linear\"\nproject = \"web\"\nteam = \"ENG\"\nrepo = \"a/b\"\n", 5, "sources[0].repo", "for github sources"},
		{"bad api_url", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\napi_url = \"ghe.example.com\"\n", 5, "sources[0].api_url", "not an http(s) URL"},
		{"plain http to a host", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\napi_url = \"http://ghe.example.com/api/v3\"\n", 5, "sources[0].api_url", "https"},
		{"bad token_env", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\ntoken_env = \"$GITHUB_TOKEN\"\n", 5, "sources[0].token_env", "not a variable name"},
		{"a token in config", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\ntoken = \"ghp_x\"\n", 5, "sources[0].token", "unknown key"},
		{"empty label", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\nlabel = \"\"\n", 5, "sources[0].label", "is empty"},
		{"bad poll", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\npoll = \"often\"\n", 5, "sources[0].poll", "often"},
		{"poll too often", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\npoll = \"10s\"\n", 5, "sources[0].poll", "less than a minute"},
		{"twice", "[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\n\n[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"a/b\"\n", 6, "sources[1]", "imports what sources[0] imports"},
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.ReplaceAll(project+tt.text, "{dir}", dir)
			_, err := Parse(path, []byte(text), Platform{})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse: %v, want a *config.Error", err)
			}
			prefix := path + ":" + strconv.Itoa(tt.line+4) + ": " + tt.key
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) || ce.Fix == "" {
				t.Errorf("error = %q\nwant prefix %q and %q, with a fix", msg, prefix, tt.want)
			}
		})
	}
}

// A source's defaults: label "agent"; a linear source imports from "Todo".
// poll may be less than a minute only for a stand-in on loopback.
func TestSources(t *testing.T) {
	dir := t.TempDir()
	text := strings.ReplaceAll(`[[projects]]
name = "web"
path = '{dir}'

[[sources]]
kind = "github"
project = "web"
repo = "acme/web"
api_url = "http://127.0.0.1:9/api/v3/"
token_env = "GH_TOKEN"
poll = "2s"

[[sources]]
kind = "linear"
project = "web"
team = "ENG"
label = "bot"
poll = "5m"
`, "{dir}", dir)
	cfg, err := Parse(filepath.Join(dir, "config.toml"), []byte(text), Platform{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Source{
		{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: "http://127.0.0.1:9/api/v3", TokenEnv: "GH_TOKEN", Poll: 2 * time.Second},
		{Kind: "linear", Project: "web", Team: "ENG", Label: "bot", State: "Todo", Poll: 5 * time.Minute},
	}
	if len(cfg.Sources) != 2 || cfg.Sources[0] != want[0] || cfg.Sources[1] != want[1] {
		t.Fatalf("Sources = %+v\nwant %+v", cfg.Sources, want)
	}
	if cfg.Sources[0].Name() != "github acme/web" || cfg.Sources[1].Name() != "linear ENG" {
		t.Fatalf("names %q, %q", cfg.Sources[0].Name(), cfg.Sources[1].Name())
	}
}
