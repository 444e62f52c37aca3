package apitype

import "github.com/buildstation/buildstation/supervisor"

// TaskDetail is a task with its history: GET /v1/tasks/{id} and
// GET /v1/agent/task.
type TaskDetail struct {
	Task    supervisor.Task         `json:"task"`
	History []supervisor.Transition `json:"history"`
	// Work is what the task's branch holds; absent when it has none.
	Work *supervisor.TaskWork `json:"work,omitempty"`
	// CostUSD is what the task's sessions cost so far, as the station
	// running them counted since it started.
	CostUSD float64 `json:"cost_usd"`
}

// DiffAnswer is GET /v1/tasks/{id}/diff.
type DiffAnswer struct {
	Diff string `json:"diff"`
}

// PullRequestAnswer is POST /v1/tasks/{id}/pull-request: the task's pull
// request, opened or found.
type PullRequestAnswer struct {
	URL string `json:"url"`
}

// MergeRequest is POST /v1/tasks/{id}/merge: into "" is the branch the
// project's worktrees start from.
type MergeRequest struct {
	Into string `json:"into"`
}

// Request bodies. Field names are the API's; supervisor.NewTask has no JSON
// tags because it is not a wire type.
type (
	AddTaskRequest struct {
		Project string `json:"project"`
		Title   string `json:"title"`
		Body    string `json:"body"`
	}
	NoteRequest struct {
		Note string `json:"note"`
	}
	ReasonRequest struct {
		Reason string `json:"reason"`
	}
	TextRequest struct {
		Text string `json:"text"`
	}
	SummaryRequest struct {
		Summary string `json:"summary"`
	}
	MessageRequest struct {
		Message string `json:"message"`
	}
	StatusRequest struct {
		Status string `json:"status"`
	}
	ReviewRequest struct {
		Verdict string `json:"verdict"`
		Notes   string `json:"notes"`
	}
)

// StopAnswer is POST /v1/station/stop's answer (202): what happens now,
// in one sentence for the person who asked.
type StopAnswer struct {
	Message string `json:"message"`
}

// RequeueRequest is a requeue's body: NoteRequest, and anywhere to lift
// the task's pin to another station.
type RequeueRequest struct {
	Note     string `json:"note"`
	Anywhere bool   `json:"anywhere,omitempty"`
}

// DecisionRequest is a person's decision on what a session asks: a note to
// the agent with allow or deny, the answer to a question.
type DecisionRequest struct {
	// Request is the id of the request decided (waiting_on.id), which an
	// allow and an answer must carry: a decision on a request that changed
	// since is refused with 409 ("the request changed; look again").
	Request string `json:"request,omitempty"`
	Note    string `json:"note,omitempty"`
	Answer  string `json:"answer,omitempty"`
}
