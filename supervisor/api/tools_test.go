package api

import (
	"testing"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// TestEveryToolHasAHandler: agent.Tools is the one table of MCP tools; the
// server has a handler for each entry and for nothing else.
func TestEveryToolHasAHandler(t *testing.T) {
	hs := (&mcpTools{}).handlers()
	for _, tool := range agent.Tools {
		if hs[tool.Name] == nil {
			t.Errorf("agent.Tools declares %s, which has no handler in handlers()", tool.Name)
		}
		delete(hs, tool.Name)
	}
	for name := range hs {
		t.Errorf("handlers() serves %s, which agent.Tools does not declare", name)
	}
}
