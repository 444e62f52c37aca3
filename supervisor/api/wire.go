package api

import "github.com/buildstation/buildstation/supervisor"

// TaskDetail is a task with its history: GET /v1/tasks/{id} and
// GET /v1/agent/task.
type TaskDetail struct {
	Task    supervisor.Task         `json:"task"`
	History []supervisor.Transition `json:"history"`
}

// Request bodies. Field names are the API's; supervisor.NewTask has no JSON
// tags because it is not a wire type.
type (
	addTaskRequest struct {
		Project string `json:"project"`
		Title   string `json:"title"`
		Body    string `json:"body"`
	}
	noteRequest struct {
		Note string `json:"note"`
	}
	reasonRequest struct {
		Reason string `json:"reason"`
	}
	textRequest struct {
		Text string `json:"text"`
	}
	summaryRequest struct {
		Summary string `json:"summary"`
	}
	messageRequest struct {
		Message string `json:"message"`
	}
	statusRequest struct {
		Status string `json:"status"`
	}
	reviewRequest struct {
		Verdict string `json:"verdict"`
		Notes   string `json:"notes"`
	}
)
