package client

import (
	"context"
	"net/url"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Projects lists projects with their effective settings.
func (c *Client) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	out := []supervisor.ProjectInfo{}
	err := c.do(ctx, "GET", "/v1/projects", nil, &out)
	return out, err
}

// Project is one project's line of Projects.
func (c *Client) Project(ctx context.Context, name string) (supervisor.ProjectInfo, error) {
	var out supervisor.ProjectInfo
	err := c.do(ctx, "GET", "/v1/projects/"+esc(name), nil, &out)
	return out, err
}

// Pause stops a project's queue: running sessions go on, no new one starts.
func (c *Client) Pause(ctx context.Context, name, reason string) error {
	return c.do(ctx, "POST", "/v1/projects/"+esc(name)+"/pause", apitype.ReasonRequest{Reason: reason}, nil)
}

// Resume restarts a paused project's queue.
func (c *Client) Resume(ctx context.Context, name string) error {
	return c.do(ctx, "POST", "/v1/projects/"+esc(name)+"/resume", nil, nil)
}

// SetProjectSettings edits a project's per-project overrides in config.toml;
// an empty value removes one. The station validates and applies them at once.
func (c *Client) SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error) {
	var out supervisor.ProjectInfo
	err := c.do(ctx, "POST", "/v1/projects/"+esc(name)+"/settings", set, &out)
	return out, err
}

// ProjectSetup is what Edit project shows of a project's folder: its
// .worktreeinclude, what its files suggest, its agent's one-time steps;
// path, when not "", is a folder typed for it, read instead.
func (c *Client) ProjectSetup(ctx context.Context, name, path string) (supervisor.ProjectSetup, error) {
	var out supervisor.ProjectSetup
	route := "/v1/projects/" + esc(name) + "/setup"
	if path != "" {
		route += "?path=" + url.QueryEscape(path)
	}
	err := c.do(ctx, "GET", route, nil, &out)
	return out, err
}

// SetInclude replaces a project's .worktreeinclude with text ("" removes it).
func (c *Client) SetInclude(ctx context.Context, name, text string) error {
	return c.do(ctx, "POST", "/v1/projects/"+esc(name)+"/include", supervisor.IncludeRequest{Text: text}, nil)
}

// AddProject adds a project to config.toml; the answer carries the
// one-time steps its agent still needs.
func (c *Client) AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error) {
	var out supervisor.AddedProject
	err := c.do(ctx, "POST", "/v1/projects", np, &out)
	return out, err
}

// RemoveProject takes a project out of config.toml.
func (c *Client) RemoveProject(ctx context.Context, name string) error {
	return c.do(ctx, "DELETE", "/v1/projects/"+esc(name), nil, nil)
}
