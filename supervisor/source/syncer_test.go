package source_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
	"github.com/buildstation/buildstation/internal/testsupport/standin/linearapi"
	"github.com/buildstation/buildstation/platform/github"
	"github.com/buildstation/buildstation/platform/linear"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/outbox"
	"github.com/buildstation/buildstation/supervisor/source"
	"github.com/buildstation/buildstation/supervisor/store"
)

// station adds tasks to a real board, as *station.Station does.
type station struct {
	*store.Store
	bus supervisor.Bus
}

func (s *station) Subscribe(n int) *supervisor.Subscription { return s.bus.Subscribe(n) }

// rig is a syncer on a SQLite board and a real outbox, polling a
// GitHub stand-in over loopback, at a clock the test moves.
type rig struct {
	t      *testing.T
	gh     *ghapi.Server
	board  *station
	ledger *outbox.Box
	sy     *source.Syncer
	now    time.Time
}

func newRig(t *testing.T) *rig {
	t.Helper()
	dir := t.TempDir()
	b, err := store.Open(filepath.Join(dir, "station.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	box, err := outbox.Open(filepath.Join(dir, outbox.File))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { box.Close() })
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	src := config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: gh.APIURL()}
	c, err := github.New(src, "tok", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, gh: gh, board: &station{Store: b}, ledger: box, now: time.Now()}
	r.sy = source.New(source.Options{
		Sources: []config.Source{src}, Trackers: []source.Tracker{c}, Station: r.board, Board: b, Ledger: box,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Publish: func(context.Context, string, string) error { return nil },
		Now:     func() time.Time { return r.now },
	})
	return r
}

// step moves the clock on by d and runs one pass.
func (r *rig) step(d time.Duration) {
	r.now = r.now.Add(d)
	r.sy.Step(context.Background())
}

func (r *rig) task(id string) supervisor.Task {
	r.t.Helper()
	tk, err := r.board.Task(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return tk
}

func (r *rig) move(id string, from, to supervisor.TaskState, reason string) {
	r.t.Helper()
	if _, err := r.board.Move(context.Background(), id, supervisor.Move{From: []supervisor.TaskState{from}, To: to, Reason: reason, Summary: "did it"}); err != nil {
		r.t.Fatal(err)
	}
}

// An issue becomes one task; an edit updates it while it waits; a close
// cancels it; polls of an unchanged repository are 304s that cost nothing.
func TestImport(t *testing.T) {
	r := newRig(t)
	n := r.gh.AddIssue("fix login", "it fails", "agent")
	r.step(0)
	if tk := r.task("t1"); tk.Title != "fix login" || tk.Body != "it fails" || tk.External == nil || tk.External.ID != "acme/web#1" {
		t.Fatalf("imported %+v", tk)
	}
	r.step(time.Minute) // the first question of what changed since
	left := r.gh.Remaining()
	for range 3 {
		r.step(time.Minute)
	}
	if r.gh.Remaining() != left {
		t.Fatalf("polls of an unchanged repository used %d of the rate limit", left-r.gh.Remaining())
	}
	if tasks, _ := r.board.Tasks(context.Background(), supervisor.TaskFilter{}); len(tasks) != 1 {
		t.Fatalf("tasks = %+v, want one per issue", tasks)
	}
	r.gh.Edit(n, func(is *ghapi.Issue) { is.Title = "fix the login" })
	r.step(30 * time.Second)
	if tk := r.task("t1"); tk.Title != "fix login" {
		t.Fatalf("polled within the minute: %q", tk.Title)
	}
	r.step(30 * time.Second)
	if tk := r.task("t1"); tk.Title != "fix the login" {
		t.Fatalf("the edit did not reach the queued task: %q", tk.Title)
	}
	r.gh.Edit(n, func(is *ghapi.Issue) { is.State = "closed" })
	r.step(time.Minute)
	if tk := r.task("t1"); tk.State != supervisor.TaskCancelled {
		t.Fatalf("closed upstream, the queued task is %s", tk.State)
	}
}

// A station cut off from GitHub keeps its writes and replays them once
// when GitHub answers again; nothing is written twice.
func TestWritesReplayOnce(t *testing.T) {
	r := newRig(t)
	n := r.gh.AddIssue("fix login", "", "agent")
	r.step(0)
	r.gh.SetFault(&ghapi.Fault{Drop: true})
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.move("t1", supervisor.TaskWorking, supervisor.TaskBlocked, "watchdog: no sign of life")
	r.step(time.Second)
	st := r.sy.State()[0]
	if st.OK || !strings.Contains(st.Problem, "cannot be reached") || st.Owed != 4 {
		t.Fatalf("cut off: %+v", st)
	}
	if cs := r.gh.Issue(n).Comments; len(cs) != 0 {
		t.Fatalf("comments while cut off: %+v", cs)
	}
	r.gh.SetFault(nil)
	r.step(time.Second)
	if st := r.sy.State()[0]; st.Owed != 4 {
		t.Fatalf("retried before the back-off: %+v", st)
	}
	r.step(2 * time.Minute)
	for range 3 {
		r.step(time.Minute)
	}
	is := r.gh.Issue(n)
	if len(is.Comments) != 2 || !strings.Contains(is.Comments[0].Body, "branch `bs/x/t1`") || !strings.Contains(is.Comments[1].Body, "watchdog: no sign of life") {
		t.Fatalf("comments = %+v, want the start and the block, once each", is.Comments)
	}
	if ls := strings.Join(is.Labels, ","); ls != "agent,blocked" {
		t.Fatalf("labels = %q", ls)
	}
	if st := r.sy.State()[0]; !st.OK || st.Owed != 0 || st.Problem != "" {
		t.Fatalf("after the replay: %+v", st)
	}
}

// A 403 with no requests left waits until the reset it names: no request
// before then, and the state says until when.
func TestRateLimitWaitsForReset(t *testing.T) {
	r := newRig(t)
	reset := r.now.Add(10 * time.Minute).Truncate(time.Second)
	r.gh.SetFault(&ghapi.Fault{Status: http.StatusForbidden, Message: "API rate limit exceeded", Count: 1,
		Header: http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset.Unix(), 10)}}})
	r.step(0)
	st := r.sy.State()[0]
	if !st.Retry.Equal(reset) || !strings.Contains(st.Problem, "rate limited until "+reset.Local().Format("15:04:05")) {
		t.Fatalf("rate limited: %+v", st)
	}
	asked := len(r.gh.Requests())
	for range 9 {
		r.step(time.Minute)
	}
	if got := len(r.gh.Requests()); got != asked {
		t.Fatalf("%d requests before the reset", got-asked)
	}
	if wait := r.sy.Step(context.Background()); wait > reset.Sub(r.now)+time.Second {
		t.Fatalf("next pass in %v, the reset is in %v", wait, reset.Sub(r.now))
	}
}

// A done task opens its pull request once, with the summary, "Closes #N"
// and the attempts, then the In Review label; a review verdict is a
// comment on it.
func TestPullRequest(t *testing.T) {
	r := newRig(t)
	n := r.gh.AddIssue("fix login", "", "agent")
	r.step(0)
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.move("t1", supervisor.TaskWorking, supervisor.TaskReview, "")
	r.step(time.Second)
	if _, err := r.board.Move(context.Background(), "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone, Actor: "reviewer", Note: "review approved: clean"}); err != nil {
		t.Fatal(err)
	}
	r.step(time.Second)
	r.step(time.Minute)
	ps := r.gh.Pulls()
	if len(ps) != 1 || ps[0].Head != "bs/x/t1" || ps[0].Base != "main" || !strings.Contains(ps[0].Body, "did it") || !strings.Contains(ps[0].Body, "Closes #1") || !strings.Contains(ps[0].Body, "attempts: 1") {
		t.Fatalf("pulls = %+v", ps)
	}
	pr := r.gh.Issue(ps[0].Number)
	if len(pr.Comments) != 1 || !strings.Contains(pr.Comments[0].Body, "approved") || !strings.Contains(pr.Comments[0].Body, "clean") {
		t.Fatalf("PR comments = %+v", pr.Comments)
	}
	if ls := strings.Join(r.gh.Issue(n).Labels, ","); ls != "agent,in review" {
		t.Fatalf("labels = %q", ls)
	}
}

// A Linear issue's task opens its pull request on the project's GitHub
// source and attaches it to the issue; the review verdict goes to the
// pull request; the issue gets the start comment and its states.
func TestLinearPullRequestAttached(t *testing.T) {
	r := newRig(t)
	lin := linearapi.New("ENG", "lin_key")
	t.Cleanup(lin.Close)
	id := lin.AddIssue("fix login", "", "Todo", "agent")
	ghSrc := config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: r.gh.APIURL()}
	linSrc := config.Source{Kind: "linear", Project: "web", Team: "ENG", Label: "agent", State: "Todo", APIURL: lin.APIURL()}
	gc, _ := github.New(ghSrc, "tok", nil)
	lc, _ := linear.New(linSrc, "lin_key", nil)
	r.sy = source.New(source.Options{
		Sources: []config.Source{ghSrc, linSrc}, Trackers: []source.Tracker{gc, lc},
		Station: r.board, Board: r.board.Store, Ledger: r.ledger,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Publish: func(context.Context, string, string) error { return nil },
		Now:     func() time.Time { return r.now },
	})
	r.step(0)
	if tk := r.task("t1"); tk.External == nil || tk.External.ID != id {
		t.Fatalf("imported %+v", tk)
	}
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.move("t1", supervisor.TaskWorking, supervisor.TaskReview, "")
	r.step(time.Second)
	if _, err := r.board.Move(context.Background(), "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "reviewer", Note: "review asked for changes: add a test"}); err != nil {
		t.Fatal(err)
	}
	r.step(time.Second)
	ps := r.gh.Pulls()
	if len(ps) != 1 || strings.Contains(ps[0].Body, "Closes #") || !strings.Contains(ps[0].Body, id) {
		t.Fatalf("pulls = %+v", ps)
	}
	is := lin.Issue(id)
	if len(is.Attachments) != 1 || !strings.HasSuffix(is.Attachments[0], "/pull/1") || is.State != "In Review" || len(is.Comments) != 1 {
		t.Fatalf("linear issue = %+v", is)
	}
	if pr := r.gh.Issue(ps[0].Number); len(pr.Comments) != 1 || !strings.Contains(pr.Comments[0].Body, "add a test") {
		t.Fatalf("PR comments = %+v", pr.Comments)
	}
}

// A 6 MB issue becomes a task of at most 64 KiB with the rest linked; an
// issue whose link is a file: URL keeps no link (#33 item 10).
func TestImportBoundsIssueData(t *testing.T) {
	r := newRig(t)
	r.gh.AddIssue("huge", strings.Repeat("x", 6<<20), "agent")
	n := r.gh.AddIssue("odd link", "b", "agent")
	r.gh.Edit(n, func(is *ghapi.Issue) { is.HTMLURL = "file:///etc/passwd" })
	r.step(0)
	if tk := r.task("t1"); len(tk.Body) > source.MaxBody+200 || !strings.Contains(tk.Body, "https://github.com/acme/web/issues/1") {
		t.Fatalf("the huge issue's task body: %d bytes, tail %q", len(tk.Body), tk.Body[max(0, len(tk.Body)-120):])
	}
	if tk := r.task("t2"); tk.External == nil || tk.External.URL != "" {
		t.Fatalf("the file: link was kept: %+v", tk.External)
	}
}

// Sync cannot miss (#39 item 1): 250 issues over three pages, and a 500 on
// each page in turn, on the first import and on a later change of every
// issue: every change reaches its task within two polls.
func TestSyncMissesNoPage(t *testing.T) {
	for page := 1; page <= 3; page++ {
		t.Run("page"+strconv.Itoa(page), func(t *testing.T) {
			r := newRig(t)
			for i := range 250 {
				r.gh.AddIssue("issue "+strconv.Itoa(i+1), "b", "agent")
			}
			fault := func() {
				r.gh.SetFault(&ghapi.Fault{Status: http.StatusInternalServerError, Message: "Server Error", Match: "&page=" + strconv.Itoa(page), Count: 4})
			}
			if page == 1 {
				fault = func() {
					r.gh.SetFault(&ghapi.Fault{Status: http.StatusInternalServerError, Message: "Server Error", Match: "/issues?", NotMatch: "&page=", Count: 4})
				}
			}
			fault()
			r.step(0)
			r.step(time.Minute)
			tasks, _ := r.board.Tasks(context.Background(), supervisor.TaskFilter{})
			if len(tasks) != 250 {
				t.Fatalf("after two polls with a 500 on page %d: %d tasks, want 250", page, len(tasks))
			}
			for n := 1; n <= 250; n++ {
				r.gh.Edit(n, func(is *ghapi.Issue) { is.Title += " (edited)" })
			}
			fault()
			r.step(time.Minute)
			r.step(2 * time.Minute)
			tasks, _ = r.board.Tasks(context.Background(), supervisor.TaskFilter{})
			stale := 0
			for _, tk := range tasks {
				if !strings.HasSuffix(tk.Title, "(edited)") {
					stale++
				}
			}
			if stale > 0 {
				t.Fatalf("after two polls with a 500 on page %d: %d of 250 tasks missed their issue's edit", page, stale)
			}
		})
	}
}

// told records what the station typed into sessions.
type teller struct {
	*station
	sent []string
}

func (t *teller) Send(_ context.Context, id, text string) error {
	t.sent = append(t.sent, id+": "+text)
	return nil
}

// Taking an issue back is honoured (#39 item 2): unlabelled or closed, its
// queued task is cancelled with why; relabelled or reopened, the same task
// is queued again as a new attempt; a running task's session is told, once,
// and the task is left to it.
func TestTakingBack(t *testing.T) {
	r := newRig(t)
	tl := &teller{station: r.board}
	r.sy = source.New(source.Options{
		Sources: []config.Source{{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: r.gh.APIURL()}},
		Trackers: []source.Tracker{func() source.Tracker {
			c, _ := github.New(config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: r.gh.APIURL()}, "tok", nil)
			return c
		}()},
		Station: tl, Board: r.board.Store, Ledger: r.ledger,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Now:     func() time.Time { return r.now },
	})
	a := r.gh.AddIssue("queued", "b", "agent")
	b := r.gh.AddIssue("running", "b", "agent")
	r.step(0)
	r.move("t2", supervisor.TaskTodo, supervisor.TaskWorking, "")

	r.gh.Edit(a, func(is *ghapi.Issue) { is.Labels = nil })
	r.step(time.Minute)
	if tk := r.task("t1"); tk.State != supervisor.TaskCancelled || !strings.Contains(tk.Reason, "lost the label") {
		t.Fatalf("unlabelled: t1 is %s (%q), want cancelled saying why", tk.State, tk.Reason)
	}
	r.gh.Edit(a, func(is *ghapi.Issue) { is.Labels = []string{"agent"} })
	r.step(time.Minute)
	if tk := r.task("t1"); tk.State != supervisor.TaskTodo || tk.Attempt != 2 {
		t.Fatalf("relabelled: t1 is %s attempt %d, want queued again as attempt 2", tk.State, tk.Attempt)
	}
	r.gh.Edit(a, func(is *ghapi.Issue) { is.State = "closed" })
	r.step(time.Minute)
	if tk := r.task("t1"); tk.State != supervisor.TaskCancelled || !strings.Contains(tk.Reason, "closed upstream") {
		t.Fatalf("closed: t1 is %s (%q)", tk.State, tk.Reason)
	}
	r.gh.Edit(a, func(is *ghapi.Issue) { is.State = "open" })
	r.step(time.Minute)
	if tk := r.task("t1"); tk.State != supervisor.TaskTodo || tk.Attempt != 3 {
		t.Fatalf("reopened: t1 is %s attempt %d, want queued again as attempt 3", tk.State, tk.Attempt)
	}
	if tasks, _ := r.board.Tasks(context.Background(), supervisor.TaskFilter{}); len(tasks) != 2 {
		t.Fatalf("%d tasks, want the same two", len(tasks))
	}

	r.gh.Edit(b, func(is *ghapi.Issue) { is.State = "closed" })
	r.step(time.Minute)
	r.gh.Edit(b, func(is *ghapi.Issue) { is.Title = "running, edited" })
	r.step(time.Minute)
	if tk := r.task("t2"); tk.State != supervisor.TaskWorking {
		t.Fatalf("a running task's issue closed: t2 is %s, want left to its session", tk.State)
	}
	if len(tl.sent) != 1 || !strings.HasPrefix(tl.sent[0], "t2: ") || !strings.Contains(tl.sent[0], "closed upstream") {
		t.Fatalf("sent %q, want t2's session told once", tl.sent)
	}
}

// One deleted Linear issue does not stop its team's writes (#39 item 3):
// its writes are dropped with a note on its task, the others land, and the
// source stays well.
func TestDeletedIssueStopsNothing(t *testing.T) {
	r := newRig(t)
	lin := linearapi.New("ENG", "lin_key")
	t.Cleanup(lin.Close)
	gone := lin.AddIssue("deleted soon", "", "Todo", "agent")
	live := lin.AddIssue("live", "", "Todo", "agent")
	linSrc := config.Source{Kind: "linear", Project: "web", Team: "ENG", Label: "agent", State: "Todo", APIURL: lin.APIURL()}
	lc, _ := linear.New(linSrc, "lin_key", nil)
	r.sy = source.New(source.Options{
		Sources: []config.Source{linSrc}, Trackers: []source.Tracker{lc},
		Station: r.board, Board: r.board.Store, Ledger: r.ledger,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Now:     func() time.Time { return r.now },
	})
	r.step(0)
	ids := map[string]string{}
	for _, id := range []string{"t1", "t2"} {
		ids[r.task(id).External.ID] = id
	}
	lin.Delete(gone)
	r.move(ids[gone], supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.move(ids[live], supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.step(time.Second)
	r.step(time.Second)
	st := r.sy.State()[0]
	if !st.OK || st.Owed != 0 || st.Problem != "" {
		t.Fatalf("source state after a deleted issue's writes: %+v; want well, nothing owed", st)
	}
	if is := lin.Issue(live); len(is.Comments) != 1 || is.State != "In Progress" {
		t.Fatalf("the live issue's writes did not land: %+v", is)
	}
	if tk := r.task(ids[gone]); !slices.ContainsFunc(tk.Notes, func(n string) bool { return strings.Contains(n, "not found") }) {
		t.Fatalf("the deleted issue's task has no note saying its write was dropped: %q", tk.Notes)
	}
}

// Writes land in the task's order with its final state (#39 item 4): "in
// review" waits for the pull request (a push that fails holds it), and
// after a review round that asked for changes and then approved, the
// label is "in review", not the second attempt's "in progress".
func TestWritesInTheTasksOrder(t *testing.T) {
	r := newRig(t)
	pushed := false
	src := config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: r.gh.APIURL()}
	c, _ := github.New(src, "tok", nil)
	r.sy = source.New(source.Options{
		Sources: []config.Source{src}, Trackers: []source.Tracker{c}, Station: r.board, Board: r.board.Store, Ledger: r.ledger,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Publish: func(context.Context, string, string) error {
			if !pushed {
				return errors.New("git push: remote rejected")
			}
			return nil
		},
		Now: func() time.Time { return r.now },
	})
	n := r.gh.AddIssue("fix login", "", "agent")
	r.step(0)
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.move("t1", supervisor.TaskWorking, supervisor.TaskReview, "")
	r.step(time.Second)
	if ls := r.gh.Issue(n).Labels; slices.Contains(ls, "in review") || len(r.gh.Pulls()) != 0 {
		t.Fatalf("labels %q with pulls %+v: in review before the pull request exists", ls, r.gh.Pulls())
	}
	pushed = true
	r.step(time.Second)
	if ls := r.gh.Issue(n).Labels; !slices.Contains(ls, "in review") || len(r.gh.Pulls()) != 1 {
		t.Fatalf("after the push: labels %q, pulls %+v", ls, r.gh.Pulls())
	}
	// The reviewer asks for changes; the second attempt runs and is approved.
	if _, err := r.board.Move(context.Background(), "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "reviewer", Note: "review asked for changes: add a test"}); err != nil {
		t.Fatal(err)
	}
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.step(time.Second)
	r.move("t1", supervisor.TaskWorking, supervisor.TaskReview, "")
	if _, err := r.board.Move(context.Background(), "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone, Actor: "reviewer", Note: "review approved: good"}); err != nil {
		t.Fatal(err)
	}
	r.step(time.Second)
	r.step(time.Second)
	if ls := r.gh.Issue(n).Labels; !slices.Contains(ls, "in review") || slices.Contains(ls, "in progress") {
		t.Fatalf("after changes then approval: labels %q, want in review alone", ls)
	}
	if len(r.gh.Pulls()) != 1 {
		t.Fatalf("pulls %+v, want the one", r.gh.Pulls())
	}
}

// A new comment on a running task's issue by a person who can act on it
// reaches the agent, as a person's `session send` does, once; the public's
// comments do not (#39 review loop).
func TestIssueCommentReachesRunningAgent(t *testing.T) {
	r := newRig(t)
	tl := &teller{station: r.board}
	src := config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent", APIURL: r.gh.APIURL()}
	c, _ := github.New(src, "tok", nil)
	r.sy = source.New(source.Options{
		Sources: []config.Source{src}, Trackers: []source.Tracker{c}, Station: tl, Board: r.board.Store, Ledger: r.ledger,
		Context: source.Context{Station: "box", Branch: func(id string) string { return "bs/x/" + id }},
		Now:     func() time.Time { return r.now },
	})
	n := r.gh.AddIssue("fix login", "b", "agent")
	r.step(0)
	r.move("t1", supervisor.TaskTodo, supervisor.TaskWorking, "")
	r.gh.Comment(n, "passer-by", "NONE", "+1")
	r.gh.Comment(n, "octo", "COLLABORATOR", "use the v2 endpoint")
	r.step(time.Minute)
	r.step(time.Minute)
	if len(tl.sent) != 1 || !strings.HasPrefix(tl.sent[0], "t1: ") || !strings.Contains(tl.sent[0], "octo") || !strings.Contains(tl.sent[0], "use the v2 endpoint") {
		t.Fatalf("sent %q, want the collaborator's comment once", tl.sent)
	}
}
