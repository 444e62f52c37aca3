package api

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
)

// Station is what the HTTP API serves. *station.Station implements it;
// API tests use a hand-written fake.
type Station interface {
	AddTask(ctx context.Context, t supervisor.NewTask) (supervisor.Task, error)
	Task(ctx context.Context, id string) (supervisor.Task, error)
	Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error)
	History(ctx context.Context, id string) ([]supervisor.Transition, error)
	Requeue(ctx context.Context, id, note string) (supervisor.Task, error)
	RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error)
	Cancel(ctx context.Context, id string) (supervisor.Task, error)
	// TaskWork, TaskDiff, Accept and Merge are a task's finished work:
	// its branch, its diff, a person's "done" and taking it into a branch.
	TaskWork(ctx context.Context, id string) (supervisor.TaskWork, bool, error)
	TaskDiff(ctx context.Context, id string, stat bool) (string, error)
	Accept(ctx context.Context, id, note string) (supervisor.Task, error)
	Merge(ctx context.Context, id, into string) (supervisor.Merged, error)

	Sessions() []supervisor.SessionInfo
	Session(id string) (supervisor.SessionInfo, bool)
	// Send types text into a session, then Enter as a separate write.
	Send(ctx context.Context, sessionID, text string) error
	// Attach returns the session's ring buffer (the last screens) and a
	// live feed of its output; Input types raw bytes, Resize sets the PTY
	// size. Close the Attachment when done.
	Attach(sessionID string) (*supervisor.Attachment, error)
	// Transcript is a session's raw output from byte from on (from < 0:
	// that many bytes back from the end), ended sessions too; id may be a
	// task id, which picks its latest session.
	Transcript(id string, from int64) (supervisor.Transcript, error)
	// Nudge and Block are the tray's "Nudge now" and "Block".
	Nudge(ctx context.Context, sessionID string) error
	Block(ctx context.Context, sessionID, reason string) error

	Status(ctx context.Context) (supervisor.Status, error)
	Projects(ctx context.Context) ([]supervisor.ProjectInfo, error)
	PauseProject(ctx context.Context, name, reason string) error
	ResumeProject(ctx context.Context, name string) error
	// SetProjectSettings edits a project's overrides in config.toml
	// (validated, applied without a restart); "" removes an override.
	SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error)
	// AddProject and RemoveProject add a project to config.toml and take
	// one out (validated, applied without a restart); AgentCLIs are the
	// agent CLIs found on the station's machine, to choose from.
	AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error)
	RemoveProject(ctx context.Context, name string) error
	AgentCLIs(ctx context.Context) []supervisor.AgentCLI

	// SessionByToken finds the live session a session token belongs to.
	SessionByToken(token string) (supervisor.SessionInfo, bool)
	// SessionProof is HMAC-SHA256 of msg keyed with the token of live
	// session id: how the station proves itself to that session's agent.
	SessionProof(id string, msg []byte) ([]byte, bool)
	// Agent-side reports; sessionID comes from the token, never the body.
	AgentComplete(ctx context.Context, sessionID, summary string) error
	AgentBlock(ctx context.Context, sessionID, reason string) error
	AgentProgress(ctx context.Context, sessionID, message string) error
	AgentStatus(ctx context.Context, sessionID, status string) error
	// AgentHook records one of the agent CLI's hooks: evidence of life, and
	// what the agent waits for (a person, its next turn).
	AgentHook(ctx context.Context, sessionID string, h supervisor.HookEvent) error
	// AgentAsk is an agent asking a person (a permission, a question); it
	// waits for Decide, or returns an empty decision when nobody decided.
	AgentAsk(ctx context.Context, sessionID string, req supervisor.AskRequest) (supervisor.Decision, error)
	// TaskCost is what a task's sessions cost so far, in dollars.
	TaskCost(id string) float64
	// Decide is a person's answer to what a session asks.
	Decide(ctx context.Context, sessionID string, d supervisor.Decision) error
	// AgentReview settles a review session's task: verdict approve or
	// changes, with the reviewer's notes.
	AgentReview(ctx context.Context, sessionID, verdict, notes string) error

	Subscribe(buffer int) *supervisor.Subscription
}
