package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/buildstation/buildstation/supervisor"
)

// One request, one notice: the agent's PermissionRequest hook asks, and
// its Notification hook (permission_prompt) says the same dialog waits a
// few seconds later; a person is told once, and the notice's title is
// short enough for a daemon's one line, its body the request whole with no
// command line to type.
func TestOneNoticePerRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, 3*time.Minute))
		task := h.add("web", "Make the login page remember the last user across restarts")
		h.proc()
		s := h.session(task.ID)
		sub := h.st.Sessions.Subscribe(256)
		defer sub.Close()
		go func() {
			_, _ = h.st.Asks.AgentAsk(h.ctx, s.ID, supervisor.AskRequest{Kind: supervisor.AskPermission, Tool: "Bash", Input: "npm publish --tag next"})
		}()
		advance(time.Second)
		if err := h.st.Agent.AgentHook(h.ctx, s.ID, supervisor.HookEvent{Event: "Notification", NotificationType: "permission_prompt", Message: "Claude needs your permission to use Bash"}); err != nil {
			t.Fatal(err)
		}
		advance(6 * time.Second)
		var perms []supervisor.Notice
		for _, n := range h.notes.all() {
			if n.Kind == supervisor.NoticePermission {
				perms = append(perms, n)
			}
		}
		if len(perms) != 1 {
			t.Fatalf("%d notices for one request: %+v", len(perms), perms)
		}
		n := perms[0]
		// The card hears of the request by the same event stream, first.
		var cardFirst bool
	stream:
		for {
			select {
			case e := <-sub.C:
				if e.Kind == supervisor.EventSession && e.Session != nil && e.Session.WaitingOn != nil && n.Ask != nil && e.Session.WaitingOn.ID == n.Ask.ID {
					cardFirst = true
				}
				if e.Kind == supervisor.EventNotice {
					break stream
				}
			default:
				break stream
			}
		}
		if !cardFirst {
			t.Error("no session event carried the request before its notice: the card shows it only after a re-read")
		}
		if n.Ask == nil || n.Ask.ID != h.session(task.ID).WaitingOn.ID {
			t.Errorf("the notice is not bound to the request waiting: %+v", n.Ask)
		}
		if utf8.RuneCountInString(n.Title) > noticeTitleMax || strings.Contains(n.Title, "npm publish") {
			t.Errorf("the notice's title %q (%d runes) is longer than a daemon's line (%d) or repeats the request", n.Title, utf8.RuneCountInString(n.Title), noticeTitleMax)
		}
		if !strings.HasPrefix(n.Body, "Bash: npm publish --tag next") || strings.Contains(n.Body, "buildstation ") {
			t.Errorf("the notice's body %q: want the request whole and no command line", n.Body)
		}
	})
}
