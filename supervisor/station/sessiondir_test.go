package station

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor/config"
)

func TestAgentEnvDropsWhatPointsIntoTheHome(t *testing.T) {
	env := []string{"BUILDSTATION_HOME=/h/home", "PWD=/h/home", "OLDPWD=/h/home/logs", "PATH=/usr/bin:/h/home/bin", "X=--cfg=/h/home/",
		"HOME=/h", "XDG_CACHE_HOME=/h/home-cache", "BUILDSTATION_STATION=a", "PATH2=/usr/bin:/h/homework"}
	got := agentEnv(env, "/h/home", nil)
	want := []string{"HOME=/h", "XDG_CACHE_HOME=/h/home-cache", "BUILDSTATION_STATION=a", "PATH2=/usr/bin:/h/homework"}
	if !slices.Equal(got, want) {
		t.Fatalf("agentEnv = %q, want %q", got, want)
	}
}

// The station's own folder leads the PATH a session inherits, ahead of
// the PATH in the environment the wiring hands in (the first one, as
// os.Getenv reads it).
func TestSelfEnvPutsTheStationFirstOnPath(t *testing.T) {
	self := filepath.Join("opt", "bs", "buildstation")
	got := selfEnv(self, []string{"HOME=/h", "PATH=/usr/bin", "PATH=/late"})
	want := []string{"BUILDSTATION_BIN=" + self, "PATH=" + filepath.Dir(self) + string(filepath.ListSeparator) + "/usr/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("selfEnv = %q, want %q", got, want)
	}
	if got := selfEnv(self, nil); !slices.Equal(got, []string{"BUILDSTATION_BIN=" + self, "PATH=" + filepath.Dir(self)}) {
		t.Errorf("selfEnv with no PATH = %q", got)
	}
	if selfEnv("", []string{"PATH=/usr/bin"}) != nil {
		t.Error("selfEnv with no executable added something")
	}
}

// The issue's attack: a station started as `GHTOK=ghp_… buildstation
// daemon` with a source's token_env = "GHTOK" handed GHTOK to every agent,
// whose `env` printed it. No variable holding a secret the station reads
// (a source's token, PostgreSQL's password on a shared board) reaches a
// session, nor a station token inherited from the station's own caller; an
// agent's own env in config.toml still does (the way to give an agent a
// narrower token on purpose).
func TestSessionEnvHoldsNoSecret(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		environ := []string{"HOME=/h", "PATH=/usr/bin", "GHTOK=ghp_station", "LINTOK=lin_station", "PGPASSWORD=pw", "PGPASSFILE=/h/.pgpass",
			"PGSSLPASSWORD=sslpw", "BUILDSTATION_TOKEN=outer", "KEEP=1"}
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Command, p.Agent = nil, "mine"
		h := startWith(t, func(o *Options) {
			o.Environ = func() []string { return environ }
			o.Config.Board = "postgres://u@h/db"
			o.Config.Agents = map[string]config.Agent{"mine": {Command: []string{"agent"}, Profile: "generic", Env: map[string]string{"GH_TOKEN": "ghp_narrow"}}}
			o.Config.Sources = []config.Source{{Kind: config.SourceGitHub, Project: "web", Repo: "a/b", TokenEnv: "GHTOK"},
				{Kind: config.SourceLinear, Project: "web", Team: "ENG", TokenEnv: "LINTOK"}}
		}, p)
		h.add("web", "print env")
		env := h.proc().spec.Env
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			switch {
			case strings.HasPrefix(k, "PG"), k == "GHTOK", k == "LINTOK":
				t.Errorf("a session got %s", kv)
			case k == "BUILDSTATION_TOKEN" && v == "outer":
				t.Errorf("a session inherited the station's caller's %s", kv)
			}
		}
		if !slices.Contains(env, "KEEP=1") || !slices.Contains(env, "GH_TOKEN=ghp_narrow") {
			t.Errorf("session env %q lost KEEP=1 or the agent's own GH_TOKEN", env)
		}
	})
}
