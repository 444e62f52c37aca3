package agent

import "github.com/buildstation/buildstation/supervisor"

// Tool is one of the station's MCP tools (at $BUILDSTATION_URL/mcp). Its
// name is part of the contract: profiles pre-approve it
// (mcp__buildstation__complete_task), so it never changes.
type Tool struct {
	Name        string
	Description string
	ReadOnly    bool                // it changes nothing
	Enums       map[string][]string // argument → the values it may take
}

// Tools is the one table of the station's MCP tools: the MCP server
// (supervisor/api) serves each with its handler, the profiles pre-approve
// each (stationTools), and docs/contract.md lists each (a test checks).
// Adding a tool is an entry here and its handler there.
var Tools = []Tool{
	{Name: "get_task", ReadOnly: true,
		Description: "Get this session's task: title, body, attempt, notes, reasons earlier attempts stopped, and the folder and branch to work in."},
	{Name: "report_progress",
		Description: "Report a step of progress. Call it every few minutes during long work, so the station knows you are alive."},
	{Name: "set_status", Enums: map[string][]string{"status": {"working", "reviewing"}},
		Description: "Say whether you are working (changing code) or reviewing (reading and judging a change); reviewing is allowed to be quieter."},
	{Name: "complete_task",
		Description: "Finish the task: commit your work first, then call this with a summary. The session ends after it."},
	{Name: "block_task",
		Description: "Stop because a person must act (a missing secret, a decision, a broken environment). The session ends after it."},
	{Name: "complete_review", Enums: map[string][]string{"verdict": {supervisor.VerdictApprove, supervisor.VerdictChanges}},
		Description: "Finish a review session with verdict approve or changes, and notes saying why. The session ends after it."},
}

// stationTools are the MCP tools a session may call without asking a
// person: every tool, since each only reports on the session's own task.
func stationTools() []string {
	names := make([]string, len(Tools))
	for i, t := range Tools {
		names[i] = t.Name
	}
	return names
}
