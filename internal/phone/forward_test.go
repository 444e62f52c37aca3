package phone

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// fakeService stands in for ntfy inside a synctest bubble (the real
// HTTP path is the e2e's, e2e/station/phone_test.go): it records notes,
// fails while down, and hands the forwarder replies as the reply topic
// would.
type fakeService struct {
	mu      sync.Mutex
	notes   []Note
	tries   []time.Time
	down    bool
	replies chan string
}

func (s *fakeService) Name() string  { return "ntfy" }
func (s *fakeService) Answers() bool { return true }
func (s *fakeService) Send(_ context.Context, n Note) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries = append(s.tries, time.Now())
	if s.down {
		return "", errors.New("the ntfy server answered 502 Bad Gateway")
	}
	s.notes = append(s.notes, n)
	return "ok", nil
}
func (s *fakeService) Replies(ctx context.Context, fn func(string)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case b := <-s.replies:
			fn(b)
		}
	}
}
func (s *fakeService) sent() []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Note(nil), s.notes...)
}

type decision struct{ session, request, do, via string }

type rig struct {
	svc       *fakeService
	events    chan supervisor.Event
	log       *testwait.Buffer
	mu        sync.Mutex
	decisions []decision
	health    []Health
}

const stationToken = "station-token-0123456789"

func start(t *testing.T, p config.Phone) *rig {
	r := &rig{svc: &fakeService{replies: make(chan string)}}
	r.run(t, p, nil)
	return r
}

// run starts a forwarder on r's service with ledger; the returned func
// stops it and waits (a station that stops).
func (r *rig) run(t *testing.T, p config.Phone, ledger Ledger) func() {
	r.events, r.log = make(chan supervisor.Event, 16), &testwait.Buffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, r.events, Options{
			Config:       func() config.Phone { return p },
			Service:      func(config.Phone) (Service, error) { return r.svc, nil },
			StationToken: stationToken,
			Decide: func(_ context.Context, session, request, do, via string) error {
				r.mu.Lock()
				defer r.mu.Unlock()
				r.decisions = append(r.decisions, decision{session, request, do, via})
				return nil
			},
			Health: func(h Health) {
				r.mu.Lock()
				defer r.mu.Unlock()
				r.health = append(r.health, h)
			},
			Log:      slog.New(slog.NewTextHandler(r.log, nil)),
			Location: time.UTC,
			Ledger:   ledger,
		})
	}()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

func ntfyPhone() config.Phone {
	return config.Phone{Service: "ntfy", URL: "http://ntfy.test", Topic: "t", Kinds: config.DefaultPhoneKinds}
}

func permission(session, input string, since time.Time) supervisor.Event {
	return supervisor.Event{Kind: supervisor.EventNotice, Notice: &supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: strings.Split(session, ".")[0], SessionID: session,
		Title: "Needs you: Bash: " + input, Body: "allow or deny", Ask: &supervisor.WaitingOn{Kind: supervisor.AskPermission, Tool: "Bash", Input: input, Since: since}}}
}

func waiting(session string, state supervisor.SessionState) supervisor.Event {
	return supervisor.Event{Kind: supervisor.EventSession, Session: &supervisor.SessionInfo{ID: session, TaskID: strings.Split(session, ".")[0], State: state}}
}

// A permission goes out at once with Allow once and Deny; the phone's
// Allow decides it once, through the station; a forged reply, a replayed
// one and one for an older request decide nothing; when the request is
// over the phone's notification is updated in place (same sequence id).
func TestPermissionAnsweredFromThePhone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := start(t, ntfyPhone())
		r.events <- permission("t1.1", "npm test", time.Now())
		synctest.Wait()
		notes := r.svc.sent()
		if len(notes) != 1 || len(notes[0].Choices) != 2 || notes[0].Choices[0].Label != "Allow once" || notes[0].Choices[1].Label != "Deny" || notes[0].Priority != 5 || notes[0].Seq == "" {
			t.Fatalf("sent %+v", notes)
		}
		first := notes[0].Choices[0].Reply
		// A newer request of the same session replaces the first.
		r.events <- permission("t1.1", "npm publish", time.Now().Add(time.Second))
		synctest.Wait()
		notes = r.svc.sent()
		allow := notes[len(notes)-1].Choices[0].Reply
		if allow.Request == first.Request {
			t.Fatal("two requests have one id")
		}
		forged := allow
		forged.Key = ReplyKey("another-station-token", allow.Session, allow.Request, allow.Do)
		denyAsAllow := notes[len(notes)-1].Choices[1].Reply
		denyAsAllow.Do = "allow"
		for _, b := range []string{forged.Body(), denyAsAllow.Body(), first.Body(), "not json", allow.Body(), allow.Body()} {
			r.svc.replies <- b
			synctest.Wait()
		}
		r.mu.Lock()
		got := append([]decision(nil), r.decisions...)
		r.mu.Unlock()
		if len(got) != 1 || got[0] != (decision{"t1.1", allow.Request, "allow", "the phone (ntfy)"}) {
			t.Fatalf("decisions %+v; want the one Allow of the newer request", got)
		}
		for _, want := range []string{"wrong key", "no longer waits"} {
			if n := strings.Count(r.log.String(), want); n < 1 {
				t.Errorf("log lacks %q:\n%s", want, r.log)
			}
		}
		if n := strings.Count(r.log.String(), "no longer waits"); n != 2 {
			t.Errorf("%d replies refused as over; want 2 (the older request's, the replay)", n)
		}
		r.events <- waiting("t1.1", supervisor.SessWorking)
		synctest.Wait()
		notes = r.svc.sent()
		last := notes[len(notes)-1]
		if last.Seq != allowSeq(notes) || !strings.HasPrefix(last.Title, "Allowed from the phone: Bash: npm publish") || len(last.Choices) != 0 {
			t.Errorf("update %+v", last)
		}
	})
}

func allowSeq(notes []Note) string {
	for i := len(notes) - 1; i >= 0; i-- {
		if len(notes[i].Choices) > 0 {
			return notes[i].Seq
		}
	}
	return ""
}

// A request answered at the desk updates the phone's notification.
func TestAnsweredAtTheDesk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := start(t, ntfyPhone())
		r.events <- permission("t2.1", "rm -rf build", time.Now())
		synctest.Wait()
		seq := r.svc.sent()[0].Seq
		reply := r.svc.sent()[0].Choices[0].Reply
		r.events <- waiting("t2.1", supervisor.SessWorking)
		synctest.Wait()
		notes := r.svc.sent()
		if len(notes) != 2 || notes[1].Seq != seq || notes[1].Title != "Answered at the desk: Bash: rm -rf build" {
			t.Fatalf("sent %+v", notes)
		}
		r.svc.replies <- reply.Body()
		synctest.Wait()
		if len(r.decisions) != 0 {
			t.Errorf("a reply after the desk answered decided %+v", r.decisions)
		}
	})
}

// In quiet hours a block waits for their end and a permission goes out
// when quiet_kinds names it; several within a minute become one.
func TestQuietHoursAndBatching(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := ntfyPhone()
		p.Quiet, _ = config.ParseQuiet("23:00-07:00") // the bubble's clock starts at midnight UTC
		p.QuietKinds = []string{"permission"}
		r := start(t, p)
		block := func(id string) supervisor.Event {
			return supervisor.Event{Kind: supervisor.EventNotice, Notice: &supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: id, SessionID: id + ".1", Title: "Blocked: " + id}}
		}
		r.events <- block("t3")
		r.events <- permission("t4.1", "make deploy", time.Now())
		synctest.Wait()
		if notes := r.svc.sent(); len(notes) != 1 || notes[0].Kind != "permission" {
			t.Fatalf("in quiet hours sent %+v; want the permission alone", notes)
		}
		time.Sleep(7 * time.Hour)
		synctest.Wait()
		if notes := r.svc.sent(); len(notes) != 2 || notes[1].Title != "Blocked: t3" {
			t.Fatalf("at the end of quiet hours sent %+v", notes)
		}
		for _, id := range []string{"t5", "t6", "t7"} {
			r.events <- block(id)
			time.Sleep(10 * time.Second)
		}
		synctest.Wait()
		if n := len(r.svc.sent()); n != 2 {
			t.Fatalf("blocks went out before the minute: %d notes", n)
		}
		time.Sleep(BatchWindow)
		synctest.Wait()
		notes := r.svc.sent()
		if len(notes) != 3 || notes[2].Title != "3 tasks blocked" || !strings.Contains(notes[2].Text, "• Blocked: t6") {
			t.Fatalf("batch sent %+v", notes[2:])
		}
	})
}

// A service that does not answer never holds the station up: the note is
// kept and retried with back-off (5s, 10s, 20s …), said once, and sent
// when the service answers again.
func TestBackOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := start(t, ntfyPhone())
		r.svc.down = true
		t0 := time.Now()
		r.events <- permission("t8.1", "go test", time.Now())
		time.Sleep(36 * time.Second)
		synctest.Wait()
		r.svc.mu.Lock()
		var at []string
		for _, tr := range r.svc.tries {
			at = append(at, tr.Sub(t0).String())
		}
		r.svc.down = false
		r.svc.mu.Unlock()
		if got := strings.Join(at, " "); got != "0s 5s 15s 35s" {
			t.Errorf("tries at %s; want 0s 5s 15s 35s", got)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		if n := len(r.svc.sent()); n != 1 {
			t.Errorf("%d notes sent after the service came back; want 1", n)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.health) != 3 || !r.health[0].OK || r.health[1].OK || !r.health[2].OK || !strings.HasPrefix(r.health[1].Away(), "Phone: ntfy.test not answering since ") || r.health[2].Away() != "" {
			t.Errorf("health told %+v; want failing once, then answering", r.health)
		}
		if n := strings.Count(r.log.String(), "does not take notices"); n != 1 {
			t.Errorf("said %d times that the service fails; want once", n)
		}
	})
}

// A note's text is bounded and carries no secret and no escape sequence.
func TestSafe(t *testing.T) {
	in := "curl -H 'Authorization: Bearer abcdefghijkl' GITHUB_TOKEN=ghp_0123456789abcdef0123 \x1b]0;x\a " + stationToken + " " + strings.Repeat("x", 2000)
	out := Safe(in, maxText, false, stationToken)
	for _, bad := range []string{"abcdefghijkl", "ghp_0123", "\x1b", stationToken} {
		if strings.Contains(out, bad) {
			t.Errorf("%q kept %q", out[:80], bad)
		}
	}
	if len(out) > maxText || !strings.HasSuffix(out, "…") {
		t.Errorf("%d bytes, not bounded", len(out))
	}
}

// A request the station gave an id is answered by that id: the reply's
// key is bound to it and the decision names it, so the station can refuse
// it when another request waits by then.
func TestRepliesCarryTheStationsRequestID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := start(t, ntfyPhone())
		e := permission("t9.1", "npm test", time.Now())
		e.Notice.Ask.ID = "a7"
		r.events <- e
		synctest.Wait()
		allow := r.svc.sent()[0].Choices[0].Reply
		if allow.Request != "a7" || allow.Key != ReplyKey(stationToken, "t9.1", "a7", "allow") {
			t.Fatalf("reply %+v", allow)
		}
		r.svc.replies <- allow.Body()
		synctest.Wait()
		if len(r.decisions) != 1 || r.decisions[0].request != "a7" {
			t.Errorf("decisions %+v", r.decisions)
		}
	})
}
