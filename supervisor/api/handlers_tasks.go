package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Tasks is the station's tasks' area, what the task verbs serve
// (*station.Tasks).
type Tasks interface {
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
	// PullRequest opens a done task's pull request on its project's
	// GitHub source, or finds the one it has, and returns its URL.
	PullRequest(ctx context.Context, id string) (string, error)
	// TaskCost is what a task's sessions cost so far, in dollars.
	TaskCost(id string) float64
}

// taskRoutes are the task verbs' routes.
func (s *Server) taskRoutes() {
	s.person("POST /v1/tasks", s.addTask)
	s.person("GET /v1/tasks", s.listTasks)
	task := pathValue("id")
	s.person("GET /v1/tasks/{id}", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, _ none) (apitype.TaskDetail, error) { return s.taskDetail(r, id) }))
	s.person("POST /v1/tasks/{id}/requeue", verb(s, task, http.StatusOK, taskNotFound, s.requeueTask))
	s.person("POST /v1/tasks/{id}/cancel", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, _ none) (supervisor.Task, error) {
			return s.areas.Tasks.Cancel(r.Context(), id)
		}))
	s.person("GET /v1/tasks/{id}/diff", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, _ none) (apitype.DiffAnswer, error) {
			diff, err := s.areas.Tasks.TaskDiff(r.Context(), id, r.URL.Query().Get("stat") == "1")
			return apitype.DiffAnswer{Diff: diff}, err
		}))
	s.personOnly("POST /v1/tasks/{id}/accept", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, req apitype.NoteRequest) (supervisor.Task, error) {
			return s.areas.Tasks.Accept(r.Context(), id, req.Note)
		}))
	s.personOnly("POST /v1/tasks/{id}/merge", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, req apitype.MergeRequest) (supervisor.Merged, error) {
			return s.areas.Tasks.Merge(r.Context(), id, strings.TrimSpace(req.Into))
		}))
	s.personOnly("POST /v1/tasks/{id}/pull-request", verb(s, task, http.StatusOK, taskNotFound,
		func(r *http.Request, id string, _ none) (apitype.PullRequestAnswer, error) {
			url, err := s.areas.Tasks.PullRequest(r.Context(), id)
			return apitype.PullRequestAnswer{URL: url}, err
		}))
}

func (s *Server) addTask(w http.ResponseWriter, r *http.Request) {
	var req apitype.AddTaskRequest
	if !decode(w, r, &req) {
		return
	}
	req.Project, req.Title = strings.TrimSpace(req.Project), strings.TrimSpace(req.Title)
	if req.Project == "" || req.Title == "" {
		writeError(w, http.StatusBadRequest, `a task needs a project and a title; send {"project": …, "title": …}`)
		return
	}
	t, err := s.areas.Tasks.AddTask(r.Context(), supervisor.NewTask{Project: req.Project, Title: req.Title, Body: req.Body})
	if err != nil {
		s.stationError(w, r, err, projectNotFound(req.Project))
		return
	}
	writeJSON(w, http.StatusCreated, t)
}

// maxTaskPage caps one answer of GET /v1/tasks, limit or not.
const maxTaskPage = 1000

func (s *Server) listTasks(w http.ResponseWriter, r *http.Request) {
	// The generation is read before the board, so a commit in between
	// only makes the kept answer's label older (pagecache.go).
	gen, keep := s.generation(r.Context())
	if keep {
		if k, ok := s.pages.get(gen, r.URL.RawQuery); ok {
			writePage(w, k)
			return
		}
	}
	q := r.URL.Query()
	f := supervisor.TaskFilter{State: supervisor.TaskState(q.Get("state")), Project: q.Get("project"), After: q.Get("after")}
	if f.State != "" && !f.State.Valid() {
		writeError(w, http.StatusBadRequest, "unknown task state "+q.Get("state")+"; use one of "+taskStateList())
		return
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "limit "+l+" is not a number of tasks; use a whole number, 0 for no limit")
			return
		}
		f.Limit = n
	}
	switch o := q.Get("order"); o {
	case "", "oldest":
	case "newest":
		f.Newest = true
	default:
		writeError(w, http.StatusBadRequest, "order "+o+" is not known; use oldest (the default) or newest")
		return
	}
	// One answer is one page, at most maxTaskPage tasks: a board of tens
	// of thousands listed whole for each of many clients costs the station
	// megabytes per answer. One task more than the page is asked for, to
	// know whether a next page follows (its cursor goes in a header).
	page := f.Limit
	if page == 0 || page > maxTaskPage {
		page = maxTaskPage
	}
	f.Limit = page + 1
	tasks, err := s.areas.Tasks.Tasks(r.Context(), f)
	if err != nil {
		s.stationError(w, r, err, projectNotFound(f.Project))
		return
	}
	var k keptPage
	if len(tasks) > page {
		tasks = tasks[:page]
		k.next = tasks[page-1].ID
	}
	if tasks == nil {
		tasks = []supervisor.Task{}
	}
	k.body = encodePage(tasks)
	if keep {
		s.pages.put(gen, r.URL.RawQuery, k)
	}
	writePage(w, k)
}

// taskDetail is a task and its history, history never null.
func (s *Server) taskDetail(r *http.Request, id string) (apitype.TaskDetail, error) {
	t, err := s.areas.Tasks.Task(r.Context(), id)
	if err != nil {
		return apitype.TaskDetail{}, err
	}
	h, err := s.areas.Tasks.History(r.Context(), id)
	if err != nil && !errors.Is(err, supervisor.ErrNotFound) {
		return apitype.TaskDetail{}, err
	}
	if h == nil {
		h = []supervisor.Transition{}
	}
	d := apitype.TaskDetail{Task: t, History: h, CostUSD: s.areas.Tasks.TaskCost(id)}
	if w, ok, err := s.areas.Tasks.TaskWork(r.Context(), id); err == nil && ok {
		d.Work = &w
	} else if err != nil {
		s.log.Debug("task work", "task", id, "err", err) // the task still shows
	}
	return d, nil
}

// requeueTask puts a task back in todo; anywhere lets another station of a
// shared board take it.
func (s *Server) requeueTask(r *http.Request, id string, req apitype.RequeueRequest) (supervisor.Task, error) {
	if req.Anywhere {
		return s.areas.Tasks.RequeueAnywhere(r.Context(), id, req.Note)
	}
	return s.areas.Tasks.Requeue(r.Context(), id, req.Note)
}

func taskStateList() string {
	names := make([]string, len(supervisor.TaskStates))
	for i, st := range supervisor.TaskStates {
		names[i] = string(st)
	}
	return strings.Join(names, ", ")
}
