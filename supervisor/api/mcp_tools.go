package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
)

// Tool inputs. The session is never an argument: it is the caller's token.
type (
	noInput       struct{}
	progressInput struct {
		Message string `json:"message" jsonschema:"what you did or are doing now, in one line"`
	}
	statusInput struct {
		Status string `json:"status" jsonschema:"working while you change code, reviewing while you read and judge a change"`
	}
	completeInput struct {
		Summary string `json:"summary" jsonschema:"what you did and how you checked it, for the reviewer"`
	}
	blockInput struct {
		Reason string `json:"reason" jsonschema:"what a person must do or decide before the task can go on"`
	}
	reviewInput struct {
		Verdict string `json:"verdict" jsonschema:"approve if the change does what the task asks, correctly and tested; changes if not"`
		Notes   string `json:"notes" jsonschema:"why; for changes, what must change"`
	}
)

// TaskBrief is what get_task answers: the session's task, what earlier
// attempts ran into, and where the session works.
type TaskBrief struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	State   string   `json:"state"`
	Attempt int      `json:"attempt"`
	Notes   []string `json:"notes"`
	// EarlierReasons are the reasons in the task's history (blocks, review
	// notes), oldest first, so a new attempt does not repeat an old one.
	EarlierReasons []string `json:"earlier_reasons"`
	Summary        string   `json:"summary"`
	// Kind is "work" or "review": a review ends with complete_review.
	Kind   string `json:"kind"`
	Dir    string `json:"dir"`
	Branch string `json:"branch"`
}

// mcpServerVersion is the version of the tool set; bump it when a tool's
// arguments change.
const mcpServerVersion = "1"

func newMCPServer(a Areas, log *slog.Logger) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "buildstation", Title: "Build Station", Version: mcpServerVersion}, &mcp.ServerOptions{
		Logger:       log,
		Instructions: "Build Station runs this session for one task. Report progress as you go, and end with complete_task (or complete_review in a review session), or block_task if a person must act.",
		// Tools only, and they never change while a session runs.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	t := &mcpTools{areas: a, log: log}
	srv.AddReceivingMiddleware(t.toolsListed)
	handlers := t.handlers()
	for _, d := range agent.Tools {
		add, ok := handlers[d.Name]
		if !ok {
			panic("mcp: the tool " + d.Name + " of agent.Tools has no handler in supervisor/api")
		}
		tool := &mcp.Tool{Name: d.Name, Description: d.Description}
		if d.ReadOnly {
			tool.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		}
		enums := map[string][]any{}
		for arg, vals := range d.Enums {
			for _, v := range vals {
				enums[arg] = append(enums[arg], v)
			}
		}
		add(srv, tool, enums)
	}
	return srv
}

// mcpTools are the tool handlers; each gets the calling session's id.
type mcpTools struct {
	areas Areas
	log   *slog.Logger
}

// toolAdder adds one tool, declared in agent.Tools, with its handler.
type toolAdder func(srv *mcp.Server, tool *mcp.Tool, enums map[string][]any)

// handle is the adder of a handler, whose input type gives the schema.
func handle[In, Out any](t *mcpTools, h func(ctx context.Context, sessionID string, in In) (*mcp.CallToolResult, Out, error)) toolAdder {
	return func(srv *mcp.Server, tool *mcp.Tool, enums map[string][]any) { addTool(srv, t, tool, enums, h) }
}

// handlers are the handlers of the tools agent.Tools declares, by name;
// a tool without one, or one without a tool, fails TestEveryToolHasAHandler.
func (t *mcpTools) handlers() map[string]toolAdder {
	return map[string]toolAdder{
		"get_task":        handle(t, t.getTask),
		"report_progress": handle(t, t.reportProgress),
		"set_status":      handle(t, t.setStatus),
		"complete_task":   handle(t, t.completeTask),
		"block_task":      handle(t, t.blockTask),
		"complete_review": handle(t, t.completeReview),
	}
}

// addTool adds a tool whose input schema comes from In (plus enums for
// the named properties) and whose handler gets the caller's session id.
// An action answers with a sentence (Out is any: no structured output);
// get_task answers with its Out. Every call is first reported as a hook:
// any MCP call is a sign of life, even one that then fails.
func addTool[In, Out any](srv *mcp.Server, t *mcpTools, tool *mcp.Tool, enums map[string][]any, h func(ctx context.Context, sessionID string, in In) (*mcp.CallToolResult, Out, error)) {
	tool.InputSchema = inputSchema[In](enums)
	mcp.AddTool(srv, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		var zero Out
		id := callerSession(req)
		if id == "" {
			return nil, zero, errors.New("this call carries no session token; the station's tools serve Build Station sessions only")
		}
		if err := t.areas.Agent.AgentHook(ctx, id, supervisor.HookEvent{Event: "MCP", Tool: tool.Name}); err != nil {
			t.log.DebugContext(ctx, "mcp: record call", "session", id, "tool", tool.Name, "err", err)
		}
		res, out, err := h(ctx, id, in)
		if err != nil {
			return nil, zero, t.toolError(ctx, id, tool.Name, err)
		}
		return res, out, nil
	})
}

// toolsListed tells the station when a session's agent has listed the
// tools: from then on its next turn can call them, so a prompt held back
// for them (Claude Code's first turn) is typed.
func (t *mcpTools) toolsListed(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/list" || err != nil {
			return res, err
		}
		if x := req.GetExtra(); x != nil && x.TokenInfo != nil && x.TokenInfo.UserID != "" {
			if herr := t.areas.Agent.AgentHook(ctx, x.TokenInfo.UserID, supervisor.HookEvent{Event: supervisor.HookMCPReady}); herr != nil {
				t.log.DebugContext(ctx, "mcp: record tools listed", "session", x.TokenInfo.UserID, "err", herr)
			}
		}
		return res, err
	}
}

// callerSession is the session whose token made this call (see
// NewMCPHandler for why it is the TokenInfo and not the context).
func callerSession(req *mcp.CallToolRequest) string {
	if req.Extra == nil || req.Extra.TokenInfo == nil {
		return ""
	}
	return req.Extra.TokenInfo.UserID
}

// inputSchema infers In's schema and adds enums. A failure is a
// programming error in this file, found by any test.
func inputSchema[In any](enums map[string][]any) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp input schema: %v", err))
	}
	for name, values := range enums {
		p, ok := s.Properties[name]
		if !ok {
			panic("mcp input schema: no property " + name)
		}
		p.Enum = values
	}
	return s
}

// toolError turns an error into the sentence the agent reads (the tool
// result, IsError set). A UserError, the station's or a tool's own check,
// already says what to do.
func (t *mcpTools) toolError(ctx context.Context, sessionID, tool string, err error) error {
	var ue *supervisor.UserError
	switch {
	case errors.As(err, &ue):
		return errors.New(ue.Msg)
	case errors.Is(err, supervisor.ErrNotFound):
		return fmt.Errorf("session %s has ended; stop and ask the user", sessionID)
	case errors.Is(err, supervisor.ErrConflict), errors.Is(err, supervisor.ErrInvalid):
		return fmt.Errorf("%s; check the task with get_task and go on from there", err)
	}
	t.log.ErrorContext(ctx, "mcp tool failed", "tool", tool, "session", sessionID, "err", err)
	return fmt.Errorf("the station failed: %v; try again in a minute, and if it fails again call block_task with this error", err)
}

func (t *mcpTools) getTask(ctx context.Context, id string, _ noInput) (*mcp.CallToolResult, TaskBrief, error) {
	sess, ok := t.areas.Sessions.Session(id)
	if !ok {
		return nil, TaskBrief{}, supervisor.NotFoundf("session %s has ended; stop and ask the user", id)
	}
	task, err := t.areas.Tasks.Task(ctx, sess.TaskID)
	if err != nil {
		if errors.Is(err, supervisor.ErrNotFound) {
			return nil, TaskBrief{}, supervisor.NotFoundf("this session's task %s is gone; stop and ask the user", sess.TaskID)
		}
		return nil, TaskBrief{}, err
	}
	hist, err := t.areas.Tasks.History(ctx, task.ID)
	if err != nil && !errors.Is(err, supervisor.ErrNotFound) {
		return nil, TaskBrief{}, err
	}
	b := TaskBrief{
		ID: task.ID, Title: task.Title, Body: task.Body, State: string(task.State), Attempt: task.Attempt,
		Notes: task.Notes, EarlierReasons: earlierReasons(hist), Summary: task.Summary,
		Kind: string(sess.Kind), Dir: sess.Dir, Branch: sess.Branch,
	}
	if b.Notes == nil {
		b.Notes = []string{}
	}
	return nil, b, nil // the SDK sends b as structured content and as JSON text
}

// earlierReasons lists the history's reasons, each with the attempt and
// the column it led to ("attempt 1, blocked: no API key"), never null.
func earlierReasons(hist []supervisor.Transition) []string {
	out := []string{}
	for _, tr := range hist {
		if r := strings.TrimSpace(tr.Reason); r != "" {
			out = append(out, fmt.Sprintf("attempt %d, %s: %s", tr.Attempt, tr.To, r))
		}
	}
	return out
}

func (t *mcpTools) reportProgress(ctx context.Context, id string, in progressInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Message) == "" {
		return nil, nil, supervisor.Invalidf("report_progress needs a message saying what you are doing")
	}
	return act(t.areas.Agent.AgentProgress(ctx, id, in.Message), "Progress noted; carry on.")
}

func (t *mcpTools) setStatus(ctx context.Context, id string, in statusInput) (*mcp.CallToolResult, any, error) {
	if in.Status != "working" && in.Status != "reviewing" {
		return nil, nil, supervisor.Invalidf("unknown status %q; use working or reviewing", in.Status)
	}
	return act(t.areas.Agent.AgentStatus(ctx, id, in.Status), "Status set to "+in.Status+".")
}

func (t *mcpTools) completeTask(ctx context.Context, id string, in completeInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Summary) == "" {
		return nil, nil, supervisor.Invalidf("complete_task needs a summary of what you did and how you checked it")
	}
	return act(t.areas.Agent.AgentComplete(ctx, id, in.Summary), "The task is complete and this session is ending; stop here.")
}

func (t *mcpTools) blockTask(ctx context.Context, id string, in blockInput) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Reason) == "" {
		return nil, nil, supervisor.Invalidf("block_task needs a reason saying what a person must do")
	}
	return act(t.areas.Agent.AgentBlock(ctx, id, in.Reason), "The task is blocked for a person to look at and this session is ending; stop here.")
}

func (t *mcpTools) completeReview(ctx context.Context, id string, in reviewInput) (*mcp.CallToolResult, any, error) {
	if in.Verdict != supervisor.VerdictApprove && in.Verdict != supervisor.VerdictChanges {
		return nil, nil, supervisor.Invalidf("unknown verdict %q; use approve or changes", in.Verdict)
	}
	if in.Verdict == supervisor.VerdictChanges && strings.TrimSpace(in.Notes) == "" {
		return nil, nil, supervisor.Invalidf("a review asking for changes needs notes saying what must change")
	}
	return act(t.areas.Agent.AgentReview(ctx, id, in.Verdict, in.Notes), "Review recorded ("+in.Verdict+") and this session is ending; stop here.")
}

// act answers an action: err as is, else one sentence for the agent.
func act(err error, done string) (*mcp.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: done}}}, nil, nil
}
