package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContractListsEveryTool: docs/contract.md's "MCP tools" names every
// tool of the table, so the docs read the same list the server serves.
func TestContractListsEveryTool(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "contract.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## MCP tools")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, tool := range Tools {
		if !strings.Contains(section, "`"+tool.Name) {
			t.Errorf("docs/contract.md's MCP tools do not list %s", tool.Name)
		}
	}
}

// TestClaudePreapprovesEveryTool: a tool missing from --allowedTools would
// make Claude Code ask a person before every report.
func TestClaudePreapprovesEveryTool(t *testing.T) {
	l, err := Build(LaunchSpec{Agent: Agent{Command: []string{"claude"}, Profile: "claude"}, SessionID: "s", URL: "http://127.0.0.1:1",
		WriteFile: func(name string, _ []byte) (string, error) { return filepath.Join(t.TempDir(), name), nil }})
	if err != nil {
		t.Fatal(err)
	}
	argv := strings.Join(l.Argv, " ")
	for _, tool := range Tools {
		if !strings.Contains(argv, "mcp__buildstation__"+tool.Name) {
			t.Errorf("claude's argv does not pre-approve %s: %s", tool.Name, argv)
		}
	}
}
