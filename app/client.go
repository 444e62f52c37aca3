package app

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Client is the part of the station's API the tray uses. *client.Client
// satisfies it; tests hand in a fake.
type Client interface {
	Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error)
	// Status is the board's counts: the tray reads them instead of every task.
	Status(ctx context.Context) (supervisor.Status, error)
	Sessions(ctx context.Context) ([]supervisor.SessionInfo, error)
	Projects(ctx context.Context) ([]supervisor.ProjectInfo, error)
	AddTask(ctx context.Context, t supervisor.NewTask) (supervisor.Task, error)
	Requeue(ctx context.Context, id, note string) (supervisor.Task, error)
	Cancel(ctx context.Context, id string) (supervisor.Task, error)
	// Task is one task with its history and its branch's work (the
	// card's branch and diff stat); TaskDiff its committed work as a
	// diff; Accept marks a blocked or reviewed task done as a person's
	// decision; Merge takes its branch into into ("": the project's).
	Task(ctx context.Context, id string) (apitype.TaskDetail, error)
	TaskDiff(ctx context.Context, id string, stat bool) (string, error)
	Accept(ctx context.Context, id, note string) (supervisor.Task, error)
	Merge(ctx context.Context, id, into string) (supervisor.Merged, error)
	// PullRequest opens a done task's pull request on its project's
	// GitHub source (or finds the one it has) and answers its URL.
	PullRequest(ctx context.Context, id string) (string, error)
	Nudge(ctx context.Context, id string) error
	Block(ctx context.Context, id, reason string) error
	// Allow, Deny and Answer decide what a session's agent asks a person.
	// request is the id of the request shown (WaitingOn.ID): the station
	// refuses a decision on a request that changed since.
	Allow(ctx context.Context, id, request, note string) error
	Deny(ctx context.Context, id, request, note string) error
	Answer(ctx context.Context, id, request, answer string) error
	Pause(ctx context.Context, name, reason string) error
	Resume(ctx context.Context, name string) error
	SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error)
	// ProjectSetup reads a project's folder for Edit project (its
	// .worktreeinclude, suggestions, the agent's steps); SetInclude
	// replaces its .worktreeinclude ("" removes it).
	ProjectSetup(ctx context.Context, name, path string) (supervisor.ProjectSetup, error)
	SetInclude(ctx context.Context, name, text string) error
	// AddProject adds (np.DryRun: checks) a project; AgentCLIs lists the
	// agent CLIs on the station's machine (Add project…).
	AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error)
	AgentCLIs(ctx context.Context) ([]supervisor.AgentCLI, error)
	// AgentNames are the built-in agents the station can run, by name.
	AgentNames(ctx context.Context) ([]string, error)
	Attach(ctx context.Context, id string) (*client.AttachConn, error)
	// Transcript reads a session's output (from < 0: the end's last bytes);
	// a task id picks its latest session.
	Transcript(ctx context.Context, id string, from int64) (supervisor.Transcript, error)
	Events(ctx context.Context) (<-chan supervisor.Event, error)
	// PhoneTest has the station check a [phone] table and send one real
	// notice through it (Notification settings' Phone section).
	PhoneTest(ctx context.Context, phone map[string]any) (apitype.PhoneTestResult, error)
	// PhoneSettings reads config.toml's [phone] table; SetPhoneSettings
	// saves one, checked by the station like the file (Notification
	// settings' Phone section).
	PhoneSettings(ctx context.Context) (map[string]any, error)
	SetPhoneSettings(ctx context.Context, phone map[string]any) (map[string]any, error)
}

var _ Client = (*client.Client)(nil)

// Connect returns a client for the running station, starting one first if
// the caller's policy says so. It is called again whenever the event stream
// ends (the station restarted), so it must re-read where the station
// listens each time.
type Connect func(ctx context.Context, first bool) (Client, error)
