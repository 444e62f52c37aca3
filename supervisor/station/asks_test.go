package station

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A request waits for a person: the session is needs-permission with the
// request in its info, never nudged or blocked while it waits; a person's
// Allow reaches the hook's call, is in the task's history with who made
// it, and lifts the state.
func TestAskWaitsForAPersonAndIsRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, time.Minute))
		task := h.add("web", "publish")
		h.proc()
		s := h.session(task.ID)
		got := make(chan supervisor.Decision, 1)
		go func() {
			d, err := h.st.Asks.AgentAsk(h.ctx, s.ID, supervisor.AskRequest{Kind: supervisor.AskPermission, Tool: "Bash", Input: "npm publish"})
			if err != nil {
				t.Error(err)
			}
			got <- d
		}()
		advance(50 * time.Second)
		info := h.session(task.ID)
		if info.State != supervisor.SessNeedsPermission || info.WaitingOn == nil || info.WaitingOn.Line() != "Bash: npm publish" {
			t.Fatalf("while asking: %v %+v", info.State, info.WaitingOn)
		}
		// The command waits for a person: nothing runs yet, whatever the
		// hooks said before.
		if info.Activity != "asks to run `npm publish`" {
			t.Errorf("activity while asking: %q", info.Activity)
		}
		if !slices.ContainsFunc(h.notes.all(), func(n supervisor.Notice) bool {
			// Notification daemons cut a long title to one line: the
			// title says who asks what kind of thing, the body the
			// request whole, first.
			return n.Title == "publish asks to run a command" && n.Ask != nil && n.Ask.Tool == "Bash" &&
				strings.HasPrefix(n.Body, "Bash: npm publish\n")
		}) {
			t.Errorf("nobody was told what is asked: %+v", h.notes.all())
		}
		// From inside a session, even with the station's token: refused.
		if err := h.st.Asks.Decide(supervisor.WithOrigin(h.ctx, "t9.1"), s.ID, supervisor.Decision{Behavior: supervisor.DecideAllow, Request: info.WaitingOn.ID}); err == nil {
			t.Fatal("a session decided a request")
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Answer: "blue", Behavior: supervisor.DecideAllow, Request: info.WaitingOn.ID}); err == nil {
			t.Fatal("a permission was answered as a question")
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Behavior: supervisor.DecideAllow, Note: "once", Request: info.WaitingOn.ID}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		d := <-got
		if d.Behavior != supervisor.DecideAllow || d.By != "person" || d.Note != "once" {
			t.Errorf("the hook got %+v", d)
		}
		info = h.session(task.ID)
		if info.WaitingOn != nil || info.State == supervisor.SessNeedsPermission {
			t.Errorf("after the decision: %v %+v", info.State, info.WaitingOn)
		}
		hist, _ := h.board.History(h.ctx, task.ID)
		last := hist[len(hist)-1]
		if last.Reason != "allowed once Bash: npm publish (note: once)" || last.Actor != "person" || last.To != supervisor.TaskWorking {
			t.Errorf("history ends with %+v", last)
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Behavior: supervisor.DecideDeny}); err == nil || !strings.Contains(err.Error(), "waits on no request") {
			t.Errorf("a second decision: %v", err)
		}
	})
}

// Nobody answering within the project's idle window, the call returns no
// decision (the agent then shows its own dialog) and the request is gone.
func TestAskNobodyAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, time.Minute))
		task := h.add("web", "publish")
		h.proc()
		s := h.session(task.ID)
		start := time.Now()
		d, err := h.st.Asks.AgentAsk(h.ctx, s.ID, supervisor.AskRequest{Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which colour?", Options: []string{"red", "blue"}})
		if err != nil || d.Behavior != "" {
			t.Fatalf("got %+v, %v; want no decision", d, err)
		}
		if waited := time.Since(start); waited != time.Minute {
			t.Errorf("waited %v, want the idle window", waited)
		}
		if info := h.session(task.ID); info.WaitingOn != nil || info.State != supervisor.SessNeedsPermission {
			t.Errorf("after the wait: %v %+v; want needs-permission, no request", info.State, info.WaitingOn)
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Behavior: supervisor.DecideAllow, Answer: "red"}); err == nil {
			t.Error("a withdrawn request was answered")
		}
	})
}

// A question is answered with its text, and refuses a bare allow.
func TestAskQuestionAnswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, time.Minute))
		task := h.add("web", "paint")
		h.proc()
		s := h.session(task.ID)
		got := make(chan supervisor.Decision, 1)
		go func() {
			d, _ := h.st.Asks.AgentAsk(context.Background(), s.ID, supervisor.AskRequest{Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which colour?", Options: []string{"red", "blue"}})
			got <- d
		}()
		advance(time.Second)
		w := h.session(task.ID).WaitingOn
		if w == nil || w.Kind != supervisor.AskQuestion || strings.Join(w.Options, ",") != "red,blue" {
			t.Fatalf("waiting on %+v", w)
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Behavior: supervisor.DecideAllow, Request: w.ID}); err == nil {
			t.Fatal("a question was allowed without an answer")
		}
		if err := h.st.Asks.Decide(h.ctx, s.ID, supervisor.Decision{Behavior: supervisor.DecideAllow, Answer: "blue", Request: w.ID}); err != nil {
			t.Fatal(err)
		}
		if d := <-got; d.Answer != "blue" {
			t.Errorf("the hook got %+v", d)
		}
	})
}
