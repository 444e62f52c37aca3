package app

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// call is one recorded call on fakeClient.
type call struct{ method, id, arg string }

// fakeClient is a station that answers from fixed lists and records the
// calls the UI makes; calls arrive on calls as well, for tests to wait
// on.
type fakeClient struct {
	mu       sync.Mutex
	tasks    []supervisor.Task
	sessions []supervisor.SessionInfo
	projects []supervisor.ProjectInfo
	events   chan supervisor.Event
	calls    chan call
	// transcripts by task id
	transcripts map[string]supervisor.Transcript
	// reads are the task filters the UI asked for, in order
	reads []supervisor.TaskFilter
	// phone is the [phone] service's state Status reports (nil: none).
	phone *supervisor.PhoneLink
	// phoneTable is config.toml's [phone] table (PhoneSettings).
	phoneTable map[string]any
	// board is the shared board's link Status reports (nil: the
	// station's own board); while it is down, the board's reads answer
	// 503 as a real station's API does.
	board *supervisor.BoardLink
	// works and diffs are each task's branch and its diff; mergeErr,
	// when set, is what a merge answers (a conflict).
	works    map[string]*supervisor.TaskWork
	diffs    map[string]string
	mergeErr error
	// prURL and prErr are what PullRequest answers.
	prURL string
	prErr error
	// taskGate, when set, holds every Task call until it is closed: a
	// test lets the board's reads of the branches go when it waits for
	// them, not while it is still acting on the UI.
	taskGate chan struct{}
	// agents are the agent CLIs AgentCLIs lists; addProject answers
	// AddProject (addproject_test.go).
	agents     []supervisor.AgentCLI
	agentReads int // how many times AgentCLIs was asked
	addProject func(supervisor.NewProject) (supervisor.AddedProject, error)
	// setup is what ProjectSetup answers (Edit project).
	setup supervisor.ProjectSetup
	// setupAt is what ProjectSetup answers for a folder typed;
	// setupPaths the folders it was asked for ("": the project's own).
	setupAt    map[string]supervisor.ProjectSetup
	setupPaths []string
}

// setBoard changes the board's link as the station sees it.
func (f *fakeClient) setBoard(l supervisor.BoardLink) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.board = &l
}

// away is the station's answer to a read the board must serve while the
// board does not answer; f.mu is held.
func (f *fakeClient) away() error {
	if f.board == nil || f.board.Reachable {
		return nil
	}
	return &apitype.Error{Status: http.StatusServiceUnavailable, Message: "the shared board did not answer (board unreachable); the station keeps retrying, try again in a moment"}
}

func newFake() *fakeClient {
	return &fakeClient{events: make(chan supervisor.Event, 16), calls: make(chan call, 16)}
}

func (f *fakeClient) record(method, id, arg string) { f.calls <- call{method, id, arg} }

// Tasks answers as a board does: filtered, in id order, paged.
func (f *fakeClient) Tasks(ctx context.Context, flt supervisor.TaskFilter) ([]supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, flt)
	if err := f.away(); err != nil {
		return nil, err
	}
	var out []supervisor.Task
	for _, t := range f.tasks {
		if (flt.State == "" || t.State == flt.State) && (flt.Project == "" || t.Project == flt.Project) {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return compareIDs(out[i].ID, out[j].ID) < 0 })
	return flt.Page(out), nil
}

// Status counts the tasks per state, as the board's GROUP BY does.
func (f *fakeClient) Status(ctx context.Context) (supervisor.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := supervisor.Status{Tasks: map[supervisor.TaskState]int{}}
	if f.board != nil {
		b := *f.board
		st.Board = &b
		if !b.Reachable {
			return st, nil // the board's counts are unknown
		}
	}
	for _, t := range f.tasks {
		st.Tasks[t.State]++
	}
	if f.phone != nil {
		p := *f.phone
		st.Phone = &p
	}
	return st, nil
}

func (f *fakeClient) Sessions(ctx context.Context) ([]supervisor.SessionInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]supervisor.SessionInfo(nil), f.sessions...), nil
}

func (f *fakeClient) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.away(); err != nil {
		return nil, err
	}
	return append([]supervisor.ProjectInfo(nil), f.projects...), nil
}

func (f *fakeClient) AddTask(ctx context.Context, t supervisor.NewTask) (supervisor.Task, error) {
	f.record("AddTask", t.Project, t.Title)
	return supervisor.Task{ID: "t99", Project: t.Project, Title: t.Title}, nil
}

func (f *fakeClient) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	f.record("Requeue", id, note)
	return supervisor.Task{ID: id, State: supervisor.TaskTodo}, nil
}

func (f *fakeClient) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	f.record("Cancel", id, "")
	return supervisor.Task{ID: id, State: supervisor.TaskCancelled}, nil
}

func (f *fakeClient) Allow(ctx context.Context, id, request, note string) error {
	f.record("Allow", id, joinRequest(request, note))
	return nil
}

func (f *fakeClient) Deny(ctx context.Context, id, request, note string) error {
	f.record("Deny", id, joinRequest(request, note))
	return nil
}

func (f *fakeClient) Answer(ctx context.Context, id, request, answer string) error {
	f.record("Answer", id, joinRequest(request, answer))
	return nil
}

// joinRequest is a decision's argument as the fake records it: the request
// it names, if any, then its text ("request=ID note").
func joinRequest(request, text string) string {
	if request == "" {
		return text
	}
	return strings.TrimSpace("request=" + request + " " + text)
}

func (f *fakeClient) Nudge(ctx context.Context, id string) error {
	f.record("Nudge", id, "")
	return nil
}

func (f *fakeClient) Block(ctx context.Context, id, reason string) error {
	f.record("Block", id, reason)
	return nil
}

func (f *fakeClient) Pause(ctx context.Context, name, reason string) error {
	f.record("Pause", name, reason)
	return nil
}

func (f *fakeClient) Resume(ctx context.Context, name string) error {
	f.record("Resume", name, "")
	return nil
}

func (f *fakeClient) SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error) {
	keys := make([]string, 0, len(set))
	for k, v := range set {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	f.record("SetProjectSettings", name, strings.Join(keys, " "))
	return supervisor.ProjectInfo{Name: name}, nil
}

func (f *fakeClient) Transcript(ctx context.Context, id string, from int64) (supervisor.Transcript, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	tr, ok := f.transcripts[id]
	if !ok {
		return supervisor.Transcript{}, supervisor.NotFoundf("no transcript for %s", id)
	}
	if from < 0 {
		from = max(0, tr.Size+from)
	}
	tr.From, tr.Data = from, tr.Data[from:]
	return tr, nil
}

func (f *fakeClient) Attach(ctx context.Context, id string) (*client.AttachConn, error) {
	return nil, errors.New("the fake has no consoles")
}

func (f *fakeClient) Events(ctx context.Context) (<-chan supervisor.Event, error) {
	out := make(chan supervisor.Event)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-f.events:
				if !ok {
					return
				}
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// Task answers with the task and the work set for it in works.
func (f *fakeClient) Task(ctx context.Context, id string) (apitype.TaskDetail, error) {
	f.mu.Lock()
	gate := f.taskGate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.tasks {
		if t.ID == id {
			return apitype.TaskDetail{Task: t, Work: f.works[id]}, nil
		}
	}
	if w, ok := f.works[id]; ok {
		return apitype.TaskDetail{Task: supervisor.Task{ID: id}, Work: w}, nil
	}
	return apitype.TaskDetail{}, supervisor.NotFoundf("no task %s", id)
}

func (f *fakeClient) TaskDiff(ctx context.Context, id string, stat bool) (string, error) {
	f.record("TaskDiff", id, "")
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.diffs[id]
	if !ok {
		return "", supervisor.NotFoundf("task %s has no branch", id)
	}
	return d, nil
}

func (f *fakeClient) Accept(ctx context.Context, id, note string) (supervisor.Task, error) {
	f.record("Accept", id, note)
	return supervisor.Task{ID: id, State: supervisor.TaskDone}, nil
}

func (f *fakeClient) Merge(ctx context.Context, id, into string) (supervisor.Merged, error) {
	f.record("Merge", id, into)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mergeErr != nil {
		return supervisor.Merged{}, f.mergeErr
	}
	// As the station does: the work's record says merged from now on.
	if w, ok := f.works[id]; ok && w != nil {
		c := *w
		c.Merged = &supervisor.MergeRecord{Into: cmp.Or(into, w.MergeInto), Commit: "abc1234", At: time.Date(2026, 12, 5, 14, 2, 0, 0, time.Local)}
		f.works[id] = &c
	}
	if w, ok := f.works[id]; ok && w != nil {
		into = cmp.Or(into, w.MergeInto)
	}
	return supervisor.Merged{Into: into, Commit: "abc1234", FastForward: true}, nil
}

func (f *fakeClient) PullRequest(ctx context.Context, id string) (string, error) {
	f.record("PullRequest", id, "")
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prURL, f.prErr
}

// PhoneTest answers as a station whose [phone] service takes the notice,
// unless the table has no url (as the station's check says).
func (f *fakeClient) PhoneTest(ctx context.Context, phone map[string]any) (apitype.PhoneTestResult, error) {
	if f.calls != nil {
		f.calls <- call{method: "PhoneTest", arg: phone["service"].(string) + " " + phone["url"].(string)}
	}
	if phone["url"] == "" {
		return apitype.PhoneTestResult{}, &apitype.Error{Status: http.StatusBadRequest, Message: "phone.url: is missing; add the ntfy server, like url = \"https://ntfy.sh\""}
	}
	return apitype.PhoneTestResult{Service: phone["service"].(string), Answer: "ntfy took message abc on topic " + phone["topic"].(string)}, nil
}

// PhoneSettings answers the [phone] table last saved.
func (f *fakeClient) PhoneSettings(ctx context.Context) (map[string]any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.phoneTable), nil
}

// SetPhoneSettings checks the table as the station does (config's own
// check) and keeps it; a refused one changes nothing.
func (f *fakeClient) SetPhoneSettings(ctx context.Context, phone map[string]any) (map[string]any, error) {
	if phone != nil {
		if _, err := config.CheckPhone(phone); err != nil {
			return nil, &apitype.Error{Status: http.StatusBadRequest, Message: err.Error()}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.phoneTable = maps.Clone(phone)
	return maps.Clone(phone), nil
}
