package agentprofile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Adding an agent profile is one file: this one registers "fake-agent",
// built in like claude, and everything that names agents sees it with
// nothing else edited. It is a package of its own so that the fake shows in
// no other test's help golden or generated page.
func init() {
	agent.Register(agent.Profile{Name: "fake-agent", About: "a test's agent", BuiltIn: true,
		Launch: func(s agent.LaunchSpec) (agent.Launch, error) {
			return agent.Launch{Argv: append([]string{"fake-agent-launched"}, s.Agent.Command...)}, nil
		}})
}

func TestARegisteredProfileIsSeenEverywhere(t *testing.T) {
	// Config validation: a project may name it with no [agents] table.
	home, project := t.TempDir(), t.TempDir()
	text := "[[projects]]\nname = \"web\"\npath = '" + project + "'\nagent = \"fake-agent\"\n"
	path := filepath.Join(home, config.FileConfig)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(home, config.Platform{})
	if err != nil {
		t.Fatalf("agent = \"fake-agent\" refused: %v", err)
	}
	if a, err := cfg.AgentFor(cfg.Projects[0]); err != nil || a.Profile != "fake-agent" || a.Command[0] != "fake-agent" {
		t.Errorf("the project's agent is %+v, %v; want the built-in fake-agent", a, err)
	}
	if _, err := config.Parse(path, []byte("[defaults]\nagent = \"fake-agnet\"\n"), config.Platform{}); err == nil || !strings.Contains(err.Error(), `"fake-agent"`) {
		t.Errorf("a misspelt agent's error should offer fake-agent: %v", err)
	}

	// The first-run config.toml names it among the built-ins and profiles.
	if d := config.DefaultText(); !strings.Contains(d, "built-in: claude, codex, fake-agent, gemini") ||
		!strings.Contains(d, `"claude", "codex", "fake-agent", "gemini", "generic"`) {
		t.Errorf("the first-run config.toml does not name fake-agent:\n%s", d)
	}

	// The CLI's help and its shell completion of --agent.
	if out := runCLI(t, "project", "add", "--help"); !strings.Contains(out, "built-in agent: claude, codex, fake-agent, gemini.") {
		t.Errorf("project add --help does not name fake-agent:\n%s", out)
	}
	empty := t.TempDir()
	if out := runCLI(t, "--home", empty, "__complete", "project", "add", ".", "--agent", "fa"); !strings.HasPrefix(out, "fake-agent\n") {
		t.Errorf("completing --agent fa offers %q; want fake-agent", out)
	}
	if out := runCLI(t, "--home", empty, "__complete", "project", "set", "web", "agent=fa"); !strings.HasPrefix(out, "agent=fake-agent\n") {
		t.Errorf("completing project set web agent=fa offers %q; want agent=fake-agent", out)
	}
}

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(t.Context(), cli.Deps{}, args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}
