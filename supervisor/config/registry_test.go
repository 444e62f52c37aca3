package config

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// A profile registered by one file (here, this test) is known everywhere
// that names profiles, with nothing else to edit: the default config.toml
// lists it, a profile = key accepts it, an unknown one's error names it,
// and a session of it launches through it. (It is not BuiltIn, so the
// other tests' agents stay as they are.)
func init() {
	agent.Register(agent.Profile{Name: "fake-profile", About: "a test's agent",
		Launch: func(s agent.LaunchSpec) (agent.Launch, error) {
			return agent.Launch{Argv: append([]string{"fake-profile-launched"}, s.Agent.Command...)}, nil
		}})
}

func TestARegisteredProfileIsKnownEverywhere(t *testing.T) {
	text := DefaultText()
	if !strings.Contains(text, `"claude", "codex", "fake-profile", "gemini", "generic"`) {
		t.Errorf("the default config.toml does not name the registered profile:\n%s", text)
	}
	cfg, err := Parse("/h/config.toml", []byte("[agents.mine]\ncommand = [\"mine\"]\nprofile = \"fake-profile\"\n"), Platform{})
	if err != nil {
		t.Fatalf("profile = \"fake-profile\" refused: %v", err)
	}
	l, err := agent.Build(agent.LaunchSpec{Agent: cfg.Agents["mine"]})
	if err != nil || len(l.Argv) != 2 || l.Argv[0] != "fake-profile-launched" {
		t.Errorf("a session of the profile launched %v, %v; want through its Launch", l.Argv, err)
	}
	if _, err := Parse("/h/config.toml", []byte("[agents.mine]\ncommand = [\"mine\"]\nprofile = \"nope\"\n"), Platform{}); err == nil || !strings.Contains(err.Error(), "fake-profile") {
		t.Errorf("an unknown profile's error should list the registered ones: %v", err)
	}
}
