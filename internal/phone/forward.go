package phone

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Options are what Run needs from the station.
type Options struct {
	// Config returns the [phone] table in force now.
	Config func() config.Phone
	// Service builds the service a [phone] table names (its token looked
	// up); it is called again when the table changes.
	Service func(config.Phone) (Service, error)
	// StationToken keys the phone's replies (ReplyKey).
	StationToken string
	// Decide is a person's decision on request of session, made from the
	// phone: do is "allow" or "deny", via says where ("the phone (ntfy)").
	Decide func(ctx context.Context, session, request, do, via string) error
	// Health is told each time the service starts or stops answering.
	Health func(Health)
	Log    *slog.Logger
	// Location is the clock quiet hours are read in; nil: time.Local.
	Location *time.Location
	// Ledger keeps each notice until the service took it (the station's
	// outbox, supervisor/outbox): a notice the service refused is retried
	// with back-off, after a restart too. nil: kept in memory only.
	Ledger Ledger
}

// Ledger keeps the notices owed to the phone's service, durably, in order.
type Ledger interface {
	// KeepNote keeps note (JSON) and returns its number.
	KeepNote(ctx context.Context, note []byte) (int64, error)
	// OwedNotes lists the notices not taken yet, oldest first.
	OwedNotes(ctx context.Context) ([]supervisor.PhoneNote, error)
	// NoteTried counts a failed send.
	NoteTried(ctx context.Context, seq int64) error
	// NoteDone drops a notice the service took, or one that is over.
	NoteDone(ctx context.Context, seq int64) error
}

// Health is how the phone's service stands, as status and the tray say it.
type Health = supervisor.PhoneLink

// Timing of the forwarder.
const (
	// BatchWindow gathers the notices that may wait (blocked, finished,
	// station) into one.
	BatchWindow = time.Minute
	// retryFirst and retryMax bound the back-off of a service that does
	// not answer.
	retryFirst = 5 * time.Second
	retryMax   = 5 * time.Minute
	sendWait   = 20 * time.Second
)

// Run forwards events until the channel closes or ctx ends.
func Run(ctx context.Context, events <-chan supervisor.Event, o Options) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	f := &forwarder{o: o, ctx: ctx, tasks: map[string]supervisor.Task{}, done: map[string]bool{},
		open: map[string]*ask{}, replies: make(chan string, 16), health: Health{OK: true}}
	defer f.stopListener()
	batch, quiet, retry := newTimer(), newTimer(), newTimer()
	f.batchT, f.quietT, f.retryT = batch, quiet, retry
	f.start()
	f.restore()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				return
			}
			f.handle(e)
		case body := <-f.replies:
			f.reply(body)
		case <-batch.C():
			batch.fired()
			f.flushBatch()
		case <-quiet.C():
			quiet.fired()
			f.quietOver()
		case <-retry.C():
			retry.fired()
			f.retryNow()
		}
	}
}

// forwarder is Run's state, owned by its goroutine.
type forwarder struct {
	o     Options
	ctx   context.Context
	book  supervisor.NoticeBook
	tasks map[string]supervisor.Task
	done  map[string]bool

	svc     Service
	svcFor  string // the [phone] table svc was made for
	stopL   context.CancelFunc
	replies chan string

	open map[string]*ask // permission requests forwarded with choices, by request id

	batch  []Note
	held   []Note
	failed []Note
	wait   time.Duration // the back-off now
	health Health

	batchT, quietT, retryT *timer
}

// ask is a request forwarded with Allow and Deny.
type ask struct {
	session  string
	request  string
	seq      string
	line     string
	title    string
	decided  string // what the phone decided, for the update
	answered bool   // the station took the phone's decision
}

func (f *forwarder) now() time.Time { return time.Now().In(f.o.Location) }

func (f *forwarder) handle(e supervisor.Event) {
	for _, n := range f.book.Over(e) {
		f.over(n)
	}
	switch {
	case e.Kind == supervisor.EventTask && e.Task != nil:
		t := *e.Task
		f.tasks[t.ID] = t
		if t.State == supervisor.TaskDone && !f.done[t.ID] {
			f.done[t.ID] = true
			f.forward(Note{Kind: "finished", Project: t.Project, TaskID: t.ID, Title: "Done: " + t.Title, Text: t.Summary}, "")
		} else if t.State != supervisor.TaskDone {
			delete(f.done, t.ID)
		}
	case e.Kind == supervisor.EventNotice && e.Notice != nil:
		f.notice(*e.Notice)
	}
}

// kindOf is a notice's kind as [phone] kinds name it; "" for one that
// never goes to a phone (a nudge: the station handles it).
func kindOf(n supervisor.Notice) string {
	switch n.Kind {
	case supervisor.NoticePermission:
		if n.Ask != nil && n.Ask.Kind == supervisor.AskQuestion {
			return "question"
		}
		return "permission"
	case supervisor.NoticeBlock:
		return "blocked"
	case supervisor.NoticeBreaker, supervisor.NoticeBudget, supervisor.NoticeStation:
		return "station"
	case "finished":
		return "finished"
	}
	return ""
}

func (f *forwarder) notice(n supervisor.Notice) {
	kind := kindOf(n)
	if kind == "" || kind == "finished" && f.done[n.TaskID] {
		return
	}
	if kind == "finished" {
		f.done[n.TaskID] = true
	}
	note := Note{Kind: kind, TaskID: n.TaskID, SessionID: n.SessionID, Title: n.Title, Text: n.Body}
	if t, ok := f.tasks[n.TaskID]; ok {
		note.Project = t.Project
		if t.External != nil {
			note.Click = t.External.URL
		}
	}
	req := ""
	if n.Kind == supervisor.NoticePermission && n.Ask != nil {
		req = RequestID(n.SessionID, *n.Ask)
		note.Seq = seqOf(req)
		// A newer request of the session ends the older one's choices.
		for id, a := range f.open {
			if a.session == n.SessionID && id != req {
				f.expire(a, "No longer waiting: "+a.line)
			}
		}
	}
	f.forward(note, req)
}

// RequestID is the id of the request w of session: the station's own
// (WaitingOn.ID), which the station checks again when the decision
// arrives; for a notice without one (a station of an older version), one
// made from what identifies it (the session, when it was asked, what is
// asked), which a later request never repeats.
func RequestID(session string, w supervisor.WaitingOn) string {
	if id := requestField(w); id != "" {
		return id
	}
	sum := sha256.Sum256([]byte(session + "\x00" + w.Since.UTC().Format(time.RFC3339Nano) + "\x00" + w.Kind + "\x00" + w.Tool + "\x00" + w.Input))
	return "r" + hex.EncodeToString(sum[:8])
}

// seqOf is a notification's sequence id for request (ntfy takes letters,
// digits, '-' and '_').
func seqOf(request string) string { return "bs-" + request }

// forward filters n by the [phone] table, makes it safe, and sends it
// now, or batches it, or holds it for the end of quiet hours.
func (f *forwarder) forward(n Note, request string) {
	p := f.o.Config()
	if !p.Enabled() || !p.Forwards(n.Kind) || !p.ForProject(n.Project) {
		return
	}
	svc := f.service(p)
	if svc == nil {
		return
	}
	n.Title = Safe(n.Title, maxTitle, true, f.o.StationToken)
	n.Text = Safe(n.Text, maxText, false, f.o.StationToken)
	n.Project = Safe(n.Project, maxTitle, true)
	n.Priority, n.Tags = looks(n.Kind)
	if request != "" && n.Kind == "permission" && svc.Answers() {
		a := &ask{session: n.SessionID, request: request, seq: n.Seq, title: n.Title, line: strings.TrimPrefix(n.Title, "Needs you: ")}
		f.open[request] = a
		for _, c := range []struct{ label, do string }{{"Allow once", supervisor.DecideAllow}, {"Deny", supervisor.DecideDeny}} {
			n.Choices = append(n.Choices, Choice{Label: c.label, Reply: Reply{Session: n.SessionID, Request: request, Do: c.do,
				Key: ReplyKey(f.o.StationToken, n.SessionID, request, c.do)}})
		}
	}
	switch {
	case p.Quiet.In(f.now()) && !slices.Contains(p.QuietKinds, n.Kind):
		f.held = append(f.held, n)
		f.quietT.arm(p.Quiet.Ends(f.now()).Sub(f.now()))
		f.o.Log.Info("phone: held for the end of quiet hours", "kind", n.Kind, "task", n.TaskID, "quiet", p.Quiet.String())
	case n.Kind == "blocked" || n.Kind == "finished" || n.Kind == "station":
		f.batch = append(f.batch, n)
		f.batchT.arm(BatchWindow)
	default:
		f.send(n)
	}
}

// looks is a kind's priority and tags (ntfy shows tags as emoji).
func looks(kind string) (int, []string) {
	switch kind {
	case "permission":
		return 5, []string{"lock"}
	case "question":
		return 5, []string{"question"}
	case "blocked":
		return 4, []string{"warning"}
	case "station":
		return 4, []string{"rotating_light"}
	}
	return 3, []string{"white_check_mark"}
}

// service is the service for p, made again when p changed; nil (said in
// the log) when it cannot be made.
func (f *forwarder) service(p config.Phone) Service {
	id := fmt.Sprintf("%+v", p)
	if f.svc != nil && f.svcFor == id {
		return f.svc
	}
	f.stopListener()
	f.svc, f.svcFor = nil, id
	s, err := f.o.Service(p)
	if err != nil {
		f.o.Log.Warn("phone: notices are not forwarded", "err", err)
		return nil
	}
	f.svc = s
	f.health = Health{Service: s.Name(), Host: hostOf(p.URL), OK: true}
	f.tell() // status names the service from the start
	if l, ok := s.(Listener); ok {
		f.listen(l)
	}
	return s
}

// hostOf is the host of a [phone] url, as status names the service.
func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		return p.Host
	}
	return ""
}

// Start makes the service and starts following replies before the first
// notice, so an answer is never missed for want of a listener.
func (f *forwarder) start() {
	if p := f.o.Config(); p.Enabled() {
		f.service(p)
	}
}

func (f *forwarder) over(n supervisor.Notice) {
	k := bookKey(n)
	drop := func(list []Note) []Note {
		return slices.DeleteFunc(list, func(m Note) bool {
			return m.SessionID == n.SessionID && m.TaskID == n.TaskID && kindKey(m) == k
		})
	}
	f.batch, f.held = drop(f.batch), drop(f.held)
	// A kept notice that is over leaves the outbox too.
	f.failed = slices.DeleteFunc(f.failed, func(m Note) bool {
		if m.SessionID == n.SessionID && m.TaskID == n.TaskID && kindKey(m) == k {
			f.taken(m)
			return true
		}
		return false
	})
	f.health.Queued = len(f.failed)
	if n.Kind != supervisor.NoticePermission || n.Ask == nil {
		return
	}
	req := RequestID(n.SessionID, *n.Ask)
	if a, ok := f.open[req]; ok {
		f.expire(a, "Answered at the desk: "+a.line)
	}
}

// expire ends a's choices and updates the phone's notification: what the
// phone decided, or that it was answered elsewhere.
func (f *forwarder) expire(a *ask, title string) {
	delete(f.open, a.request)
	if a.answered {
		title = a.decided + ": " + a.line
	}
	if f.svc == nil || !f.svc.Answers() {
		return
	}
	f.send(Note{Kind: "permission", SessionID: a.session, Title: Safe(title, maxTitle, true), Text: "No action needed.", Priority: 2, Tags: []string{"white_check_mark"}, Seq: a.seq})
}

func bookKey(n supervisor.Notice) string { return string(n.Kind) }

func kindKey(m Note) string {
	switch m.Kind {
	case "permission", "question":
		return string(supervisor.NoticePermission)
	case "blocked":
		return string(supervisor.NoticeBlock)
	}
	return "-"
}

// reply takes one message from the reply topic: a decision when it holds
// the key of an open request, refused (and logged) otherwise.
func (f *forwarder) reply(body string) {
	var r Reply
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Session == "" || r.Request == "" {
		f.o.Log.Warn("phone: refused a reply that is not one of the station's", "body", Safe(body, 80, true))
		return
	}
	if !r.holds(f.o.StationToken) {
		f.o.Log.Warn("phone: refused a reply with a wrong key (forged, or made for another request)", "session", r.Session, "request", r.Request)
		return
	}
	a, ok := f.open[r.Request]
	if !ok || a.session != r.Session || a.answered {
		f.o.Log.Warn("phone: refused a reply to a request that no longer waits (answered, replaced or over); each reply counts once", "session", r.Session, "request", r.Request)
		return
	}
	if r.Do != supervisor.DecideAllow && r.Do != supervisor.DecideDeny {
		f.o.Log.Warn("phone: refused a reply with no decision", "session", r.Session, "request", r.Request)
		return
	}
	a.answered = true // used once, whatever the station says
	via := "the phone (" + f.health.Service + ")"
	if err := f.o.Decide(f.ctx, r.Session, r.Request, r.Do, via); err != nil {
		f.o.Log.Warn("phone: the station refused the phone's decision", "session", r.Session, "request", r.Request, "err", err)
		a.decided = "Not taken"
		return
	}
	a.decided = map[string]string{supervisor.DecideAllow: "Allowed from the phone", supervisor.DecideDeny: "Denied from the phone"}[r.Do]
	f.o.Log.Info("phone: a person decided from the phone", "session", r.Session, "request", r.Request, "decision", r.Do)
}

// requestField is the station's own id of a request (WaitingOn.ID).
func requestField(w supervisor.WaitingOn) string { return w.ID }
