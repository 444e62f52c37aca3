package phone

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// send delivers n now; a service that does not answer keeps it for a
// retry with back-off, and says so once. The notice is kept in the
// outbox first, so a station that stops before the service took it sends
// it when it starts again.
func (f *forwarder) send(n Note) {
	if f.svc == nil {
		return
	}
	f.keep(&n)
	if len(f.failed) > 0 {
		// Keep the order: the service is down, or a retry is due first.
		f.failed = append(f.failed, n)
		f.health.Queued = len(f.failed)
		if !f.health.OK {
			f.tell() // status's count of kept notices
		}
		return
	}
	if err := f.try(n); err != nil {
		f.failed = append(f.failed, n)
		f.failing(err)
		return
	}
	f.taken(n)
}

func (f *forwarder) try(n Note) error {
	ctx, cancel := context.WithTimeout(f.ctx, sendWait)
	defer cancel()
	answer, err := f.svc.Send(ctx, n)
	if err != nil {
		if f.o.Ledger != nil && n.kept != 0 {
			if lerr := f.o.Ledger.NoteTried(f.ctx, n.kept); lerr != nil {
				f.o.Log.Warn("phone: count a try in the outbox", "err", lerr)
			}
		}
		return err
	}
	f.o.Log.Debug("phone: sent", "kind", n.Kind, "task", n.TaskID, "answer", answer)
	return nil
}

// keep writes n to the outbox before its first send. An outbox that
// cannot take it is said in the log: the notice is still sent, and
// retried while the station runs.
func (f *forwarder) keep(n *Note) {
	if f.o.Ledger == nil || n.kept != 0 {
		return
	}
	js, err := json.Marshal(n)
	if err == nil {
		n.kept, err = f.o.Ledger.KeepNote(f.ctx, js)
	}
	if err != nil {
		f.o.Log.Warn("phone: the outbox did not keep a notice; it is retried only while the station runs", "err", err)
	}
}

// taken drops n from the outbox: the service took it, or it is over.
func (f *forwarder) taken(n Note) {
	if f.o.Ledger == nil || n.kept == 0 {
		return
	}
	if err := f.o.Ledger.NoteDone(f.ctx, n.kept); err != nil {
		f.o.Log.Warn("phone: drop a sent notice from the outbox; it may be sent again after a restart", "err", err)
	}
}

// restore takes the notices a stopped station still owed from the outbox
// and sends them first. A permission's Allow and Deny work again: the
// reply's key holds for that request, and the station takes the decision
// only while the request waits.
func (f *forwarder) restore() {
	if f.o.Ledger == nil {
		return
	}
	owed, err := f.o.Ledger.OwedNotes(f.ctx)
	if err != nil {
		f.o.Log.Warn("phone: read the notices owed from the outbox", "err", err)
		return
	}
	for _, o := range owed {
		var n Note
		if err := json.Unmarshal(o.Note, &n); err != nil {
			f.o.Log.Warn("phone: a notice in the outbox cannot be read; it is dropped", "seq", o.Seq, "err", err)
			f.taken(Note{kept: o.Seq})
			continue
		}
		n.kept = o.Seq
		f.failed = append(f.failed, n)
		if len(n.Choices) > 0 {
			rp := n.Choices[0].Reply
			f.open[rp.Request] = &ask{session: rp.Session, request: rp.Request, seq: n.Seq, title: n.Title, line: strings.TrimPrefix(n.Title, "Needs you: ")}
		}
	}
	if len(f.failed) > 0 {
		f.o.Log.Info(fmt.Sprintf("phone: %d notices kept from before the station stopped are sent first", len(f.failed)))
		f.retryT.arm(0)
	}
}

// failing records a failed send: the first failure says so (log, status,
// tray) once; the retry backs off, doubling up to retryMax.
func (f *forwarder) failing(err error) {
	if f.health.OK {
		f.health = Health{Service: f.health.Service, Host: f.health.Host, Since: time.Now(), Error: err.Error()}
		f.wait = retryFirst
		f.health.Queued = len(f.failed)
		f.o.Log.Warn(fmt.Sprintf("phone: %s does not take notices; they are kept in the outbox and retried with back-off", f.health.Service), "err", err)
		f.tell()
	} else {
		f.health.Error = err.Error()
		f.wait = min(f.wait*2, retryMax)
	}
	f.health.Queued = len(f.failed)
	f.retryT.arm(f.wait)
}

// retryNow sends the kept notes in order, until one fails again.
func (f *forwarder) retryNow() {
	for len(f.failed) > 0 {
		if f.svc == nil {
			// No service any more: what was owed to the old one is over.
			for _, n := range f.failed {
				f.taken(n)
			}
			f.failed = nil
			break
		}
		if err := f.try(f.failed[0]); err != nil {
			f.failing(err)
			return
		}
		f.taken(f.failed[0])
		f.failed = f.failed[1:]
	}
	if !f.health.OK {
		f.o.Log.Info(fmt.Sprintf("phone: %s takes notices again; the kept ones are sent", f.health.Service))
		f.health = Health{Service: f.health.Service, Host: f.health.Host, OK: true}
		f.tell()
	}
}

func (f *forwarder) tell() {
	if f.o.Health != nil {
		f.o.Health(f.health)
	}
}

// flushBatch sends what gathered in the batch window: one note as it is,
// several as one ("3 tasks blocked").
func (f *forwarder) flushBatch() {
	list := f.batch
	f.batch = nil
	f.sendGathered(list, "")
}

// quietOver sends what quiet hours held, as one note when several.
func (f *forwarder) quietOver() {
	p := f.o.Config()
	if p.Quiet.In(f.now()) {
		f.quietT.arm(p.Quiet.Ends(f.now()).Sub(f.now()))
		return
	}
	list := f.held
	f.held = nil
	f.sendGathered(list, "While quiet: ")
}

// sendGathered sends list: a note with choices alone (its buttons are its
// own), the rest as one.
func (f *forwarder) sendGathered(list []Note, prefix string) {
	var rest []Note
	for _, n := range list {
		if len(n.Choices) > 0 {
			f.send(n)
		} else {
			rest = append(rest, n)
		}
	}
	switch len(rest) {
	case 0:
	case 1:
		f.send(rest[0])
	default:
		f.send(Summary(rest, prefix))
	}
}

// Summary is several notes as one: "3 tasks blocked", or "4 notices: 3
// tasks blocked, 1 task finished", with each note's title below.
func Summary(list []Note, prefix string) Note {
	counts := map[string]int{}
	var order []string
	for _, n := range list {
		if counts[n.Kind] == 0 {
			order = append(order, n.Kind)
		}
		counts[n.Kind]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, counted(counts[k], k))
	}
	title := parts[0]
	if len(parts) > 1 {
		title = fmt.Sprintf("%d notices: %s", len(list), strings.Join(parts, ", "))
	}
	var text strings.Builder
	for _, n := range list {
		text.WriteString("• " + n.Title + "\n")
	}
	s := Note{Kind: order[0], Title: Safe(prefix+title, maxTitle, true), Text: Safe(strings.TrimSpace(text.String()), maxText, false)}
	s.Priority, s.Tags = looks(s.Kind)
	for _, n := range list {
		if s.Project == "" || s.Project == n.Project {
			s.Project = n.Project
		} else {
			s.Project = ""
			break
		}
	}
	return s
}

var nouns = map[string][2]string{
	"blocked":    {"task blocked", "tasks blocked"},
	"finished":   {"task finished", "tasks finished"},
	"station":    {"station notice", "station notices"},
	"question":   {"question waits", "questions wait"},
	"permission": {"permission waits", "permissions wait"},
}

func counted(n int, kind string) string {
	if n == 1 {
		return "1 " + nouns[kind][0]
	}
	return fmt.Sprintf("%d %s", n, nouns[kind][1])
}

// listen follows the service's replies on a goroutine of its own until
// the service changes or Run ends, reconnecting with back-off.
func (f *forwarder) listen(l Listener) {
	ctx, cancel := context.WithCancel(f.ctx)
	f.stopL = cancel
	go func() {
		wait := time.Second
		for {
			err := l.Replies(ctx, func(body string) {
				select {
				case f.replies <- body:
				case <-ctx.Done():
				}
			})
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				f.o.Log.Debug("phone: the reply stream ended; reconnecting", "err", err, "in", wait)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			wait = min(wait*2, time.Minute)
		}
	}()
}

func (f *forwarder) stopListener() {
	if f.stopL != nil {
		f.stopL()
		f.stopL = nil
	}
}

// timer is a one-shot timer that is armed only when idle: the first
// notice of a window sets its end, later ones join it.
type timer struct {
	t     *time.Timer
	armed bool
}

func newTimer() *timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &timer{t: t}
}

func (t *timer) C() <-chan time.Time { return t.t.C }

func (t *timer) arm(d time.Duration) {
	if t.armed {
		return
	}
	t.armed = true
	t.t.Reset(d)
}

func (t *timer) fired() { t.armed = false }
