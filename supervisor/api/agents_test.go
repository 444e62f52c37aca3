package api_test

import (
	"context"
	"slices"
	"testing"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// GET /v1/agents?known=1 names every built-in agent the station can run,
// found here or not: the dashboard shows them without linking the agent
// profiles (or config) itself.
func TestAgentNamesAreTheStationsBuiltIns(t *testing.T) {
	_, env := newBoardEnv(t)
	names, err := env.client(stationToken).AgentNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := agent.ProfileNames(true); len(want) == 0 || !slices.Equal(names, want) {
		t.Errorf("agent names %q, want the built-ins %q", names, want)
	}
}
