package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// AddTask puts a new task on the board.
func (c *Client) AddTask(ctx context.Context, t supervisor.NewTask) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, http.MethodPost, "/v1/tasks", apitype.AddTaskRequest{Project: t.Project, Title: t.Title, Body: t.Body}, &out)
	return out, err
}

// Tasks lists tasks, oldest first (newest first with f.Newest), narrowed by
// f. Without f.Limit it follows the station's pages to the end.
func (c *Client) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	var all []supervisor.Task
	for {
		page, next, err := c.TasksPage(ctx, f)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if next == "" || f.Limit > 0 {
			if all == nil {
				all = []supervisor.Task{}
			}
			return all, nil
		}
		f.After = next
	}
}

// TasksPage lists one page of tasks; next is the cursor (f.After) of the
// page that follows, "" at the end. The station caps a page however large
// f.Limit is.
func (c *Client) TasksPage(ctx context.Context, f supervisor.TaskFilter) (tasks []supervisor.Task, next string, err error) {
	q := url.Values{}
	if f.State != "" {
		q.Set("state", string(f.State))
	}
	if f.Project != "" {
		q.Set("project", f.Project)
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	if f.After != "" {
		q.Set("after", f.After)
	}
	if f.Newest {
		q.Set("order", "newest")
	}
	path := "/v1/tasks"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	out := []supervisor.Task{}
	h, err := c.doHeader(ctx, http.MethodGet, path, nil, &out)
	return out, h.Get(apitype.HeaderNextAfter), err
}

// Task returns one task and its history.
func (c *Client) Task(ctx context.Context, id string) (apitype.TaskDetail, error) {
	var out apitype.TaskDetail
	err := c.do(ctx, http.MethodGet, "/v1/tasks/"+esc(id), nil, &out)
	return out, err
}

// Requeue starts a blocked task over, with note handed to the next session.
func (c *Client) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, http.MethodPost, "/v1/tasks/"+esc(id)+"/requeue", apitype.NoteRequest{Note: note}, &out)
	return out, err
}

// RequeueAnywhere is Requeue of a task pinned to another station, lifting
// the pin: any station may start it.
func (c *Client) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, http.MethodPost, "/v1/tasks/"+esc(id)+"/requeue", apitype.RequeueRequest{Note: note, Anywhere: true}, &out)
	return out, err
}

// Cancel takes a task off the board, ending its session if it has one.
func (c *Client) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, http.MethodPost, "/v1/tasks/"+esc(id)+"/cancel", nil, &out)
	return out, err
}

// TaskDiff is a task's committed work as a diff (stat: git's --stat).
func (c *Client) TaskDiff(ctx context.Context, id string, stat bool) (string, error) {
	var out apitype.DiffAnswer
	path := "/v1/tasks/" + esc(id) + "/diff"
	if stat {
		path += "?stat=1"
	}
	err := c.do(ctx, http.MethodGet, path, nil, &out)
	return out.Diff, err
}

// Accept marks a blocked or reviewed task done: a person's decision.
func (c *Client) Accept(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, http.MethodPost, "/v1/tasks/"+esc(id)+"/accept", apitype.NoteRequest{Note: note}, &out)
	return out, err
}

// Merge takes a task's branch into into ("": the project's start branch).
func (c *Client) Merge(ctx context.Context, id, into string) (supervisor.Merged, error) {
	var out supervisor.Merged
	err := c.do(ctx, http.MethodPost, "/v1/tasks/"+esc(id)+"/merge", apitype.MergeRequest{Into: into}, &out)
	return out, err
}

// Sessions lists the live sessions.
func (c *Client) Sessions(ctx context.Context) ([]supervisor.SessionInfo, error) {
	out := []supervisor.SessionInfo{}
	err := c.do(ctx, http.MethodGet, "/v1/sessions", nil, &out)
	return out, err
}

// Session returns one session.
func (c *Client) Session(ctx context.Context, id string) (supervisor.SessionInfo, error) {
	var out supervisor.SessionInfo
	err := c.do(ctx, http.MethodGet, "/v1/sessions/"+esc(id), nil, &out)
	return out, err
}

// Send types text into a session, then Enter.
func (c *Client) Send(ctx context.Context, id, text string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/send", apitype.TextRequest{Text: text}, nil)
}

// Nudge types the nudge text into a session now, as the watchdog would.
func (c *Client) Nudge(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/nudge", nil, nil)
}

// Block blocks a session's task with reason and ends the session.
func (c *Client) Block(ctx context.Context, id, reason string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/block", apitype.ReasonRequest{Reason: reason}, nil)
}

// Status returns the station's counts.
func (c *Client) Status(ctx context.Context) (supervisor.Status, error) {
	var out supervisor.Status
	err := c.do(ctx, http.MethodGet, "/v1/status", nil, &out)
	return out, err
}

// Projects lists projects with their effective settings.
func (c *Client) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	out := []supervisor.ProjectInfo{}
	err := c.do(ctx, http.MethodGet, "/v1/projects", nil, &out)
	return out, err
}

// Project is one project's line of Projects.
func (c *Client) Project(ctx context.Context, name string) (supervisor.ProjectInfo, error) {
	var out supervisor.ProjectInfo
	err := c.do(ctx, http.MethodGet, "/v1/projects/"+esc(name), nil, &out)
	return out, err
}

// Pause stops a project's queue: running sessions go on, no new one starts.
func (c *Client) Pause(ctx context.Context, name, reason string) error {
	return c.do(ctx, http.MethodPost, "/v1/projects/"+esc(name)+"/pause", apitype.ReasonRequest{Reason: reason}, nil)
}

// Resume restarts a paused project's queue.
func (c *Client) Resume(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodPost, "/v1/projects/"+esc(name)+"/resume", nil, nil)
}

// SetProjectSettings edits a project's per-project overrides in config.toml;
// an empty value removes one. The station validates and applies them at once.
func (c *Client) SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error) {
	var out supervisor.ProjectInfo
	err := c.do(ctx, http.MethodPost, "/v1/projects/"+esc(name)+"/settings", set, &out)
	return out, err
}

// ProjectSetup is what Edit project shows of a project's folder: its
// .worktreeinclude, what its files suggest, its agent's one-time steps.
func (c *Client) ProjectSetup(ctx context.Context, name string) (supervisor.ProjectSetup, error) {
	var out supervisor.ProjectSetup
	err := c.do(ctx, http.MethodGet, "/v1/projects/"+esc(name)+"/setup", nil, &out)
	return out, err
}

// SetInclude replaces a project's .worktreeinclude with text ("" removes it).
func (c *Client) SetInclude(ctx context.Context, name, text string) error {
	return c.do(ctx, http.MethodPost, "/v1/projects/"+esc(name)+"/include", supervisor.IncludeRequest{Text: text}, nil)
}

// AddProject adds a project to config.toml; the answer carries the
// one-time steps its agent still needs.
func (c *Client) AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error) {
	var out supervisor.AddedProject
	err := c.do(ctx, http.MethodPost, "/v1/projects", np, &out)
	return out, err
}

// RemoveProject takes a project out of config.toml.
func (c *Client) RemoveProject(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodDelete, "/v1/projects/"+esc(name), nil, nil)
}

// RequestStop asks the station to drain, then stop, as a first Ctrl-C
// does, and returns what it says happens now.
func (c *Client) RequestStop(ctx context.Context) (string, error) {
	var out apitype.StopAnswer
	err := c.do(ctx, http.MethodPost, "/v1/station/stop", nil, &out)
	return out.Message, err
}

// AgentCLIs lists the agent CLIs found on the station's machine.
func (c *Client) AgentCLIs(ctx context.Context) ([]supervisor.AgentCLI, error) {
	out := []supervisor.AgentCLI{}
	err := c.do(ctx, http.MethodGet, "/v1/agents", nil, &out)
	return out, err
}

// AgentNames lists the built-in agents the station can run, by name
// (found on its machine or not).
func (c *Client) AgentNames(ctx context.Context) ([]string, error) {
	var out []supervisor.AgentCLI
	if err := c.do(ctx, http.MethodGet, "/v1/agents?known=1", nil, &out); err != nil {
		return nil, err
	}
	names := make([]string, len(out))
	for i, a := range out {
		names[i] = a.Name
	}
	return names, nil
}

// Transcript reads a session's raw output from byte from on (from < 0:
// from the end); id may be a task id, which picks its latest session.
func (c *Client) Transcript(ctx context.Context, id string, from int64) (supervisor.Transcript, error) {
	var out supervisor.Transcript
	err := c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(id)+"/transcript?from="+strconv.FormatInt(from, 10), nil, &out)
	return out, err
}

// Allow allows once the tool call a session waits on — the request whose
// id (waiting_on.id) is request, the one the person was shown — with an
// optional note to the agent. A request that changed since is a conflict
// saying "the request changed; look again".
func (c *Client) Allow(ctx context.Context, id, request, note string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/allow", apitype.DecisionRequest{Request: request, Note: note}, nil)
}

// Deny refuses the tool call (or the question) a session waits on; the note
// reaches the agent. request "" denies whatever request waits.
func (c *Client) Deny(ctx context.Context, id, request, note string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/deny", apitype.DecisionRequest{Request: request, Note: note}, nil)
}

// Answer answers the question a session's agent asks, the one whose id is
// request.
func (c *Client) Answer(ctx context.Context, id, request, answer string) error {
	return c.do(ctx, http.MethodPost, "/v1/sessions/"+esc(id)+"/answer", apitype.DecisionRequest{Request: request, Answer: answer}, nil)
}
