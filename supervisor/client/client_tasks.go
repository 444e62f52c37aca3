package client

import (
	"context"
	"net/url"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// AddTask puts a new task on the board.
func (c *Client) AddTask(ctx context.Context, t supervisor.NewTask) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, "POST", "/v1/tasks", apitype.AddTaskRequest{Project: t.Project, Title: t.Title, Body: t.Body}, &out)
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
	h, err := c.doHeader(ctx, "GET", path, nil, &out)
	return out, h.Get(apitype.HeaderNextAfter), err
}

// Task returns one task and its history.
func (c *Client) Task(ctx context.Context, id string) (apitype.TaskDetail, error) {
	var out apitype.TaskDetail
	err := c.do(ctx, "GET", "/v1/tasks/"+esc(id), nil, &out)
	return out, err
}

// Requeue starts a blocked task over, with note handed to the next session.
func (c *Client) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/requeue", apitype.NoteRequest{Note: note}, &out)
	return out, err
}

// RequeueAnywhere is Requeue of a task pinned to another station, lifting
// the pin: any station may start it.
func (c *Client) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/requeue", apitype.RequeueRequest{Note: note, Anywhere: true}, &out)
	return out, err
}

// Cancel takes a task off the board, ending its session if it has one.
func (c *Client) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/cancel", nil, &out)
	return out, err
}

// TaskDiff is a task's committed work as a diff (stat: git's --stat).
func (c *Client) TaskDiff(ctx context.Context, id string, stat bool) (string, error) {
	var out apitype.DiffAnswer
	path := "/v1/tasks/" + esc(id) + "/diff"
	if stat {
		path += "?stat=1"
	}
	err := c.do(ctx, "GET", path, nil, &out)
	return out.Diff, err
}

// Accept marks a blocked or reviewed task done: a person's decision.
func (c *Client) Accept(ctx context.Context, id, note string) (supervisor.Task, error) {
	var out supervisor.Task
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/accept", apitype.NoteRequest{Note: note}, &out)
	return out, err
}

// Merge takes a task's branch into into ("": the project's start branch).
func (c *Client) Merge(ctx context.Context, id, into string) (supervisor.Merged, error) {
	var out supervisor.Merged
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/merge", apitype.MergeRequest{Into: into}, &out)
	return out, err
}

// PullRequest opens a done task's pull request on its project's GitHub
// source, or finds the one it has, and returns its URL.
func (c *Client) PullRequest(ctx context.Context, id string) (string, error) {
	var out apitype.PullRequestAnswer
	err := c.do(ctx, "POST", "/v1/tasks/"+esc(id)+"/pull-request", nil, &out)
	return out.URL, err
}
