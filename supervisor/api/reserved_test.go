package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// placer is an api.Callers: places says whether this OS can name the
// process at the far end of a connection; when it can, it names none
// (known false), as Linux does for a socket its client already closed.
type placer struct{ places bool }

func (p placer) Caller(local, remote string) (string, bool) { return "", false }
func (p placer) Places() bool                               { return p.places }

// The attack: an agent with the station's token sends allow (or
// station stop) and closes its socket at once, so the OS no longer names
// it; the station took the decision as "unverified origin". Where the OS
// can place callers, a verb reserved to a person from a caller it could not
// place is refused in one sentence; other operator calls still go through,
// recorded as unverified. Where the OS cannot place any caller (macOS,
// Windows), they are taken as before (docs/security.md says what protects
// them there).
func TestReservedVerbsRefuseAnUnplacedCaller(t *testing.T) {
	reserved := []struct{ method, path, body string }{
		{"POST", "/v1/sessions/t1.1/allow", `{"request":"ab"}`},
		{"POST", "/v1/sessions/t1.1/deny", `{}`},
		{"POST", "/v1/sessions/t1.1/answer", `{"answer":"x","request":"ab"}`},
		{"POST", "/v1/station/stop", `{}`},
		{"POST", "/v1/projects/web/settings", `{"settings":{"idle_window":"9m"}}`},
		{"POST", "/v1/projects/web/include", `{"text":".env"}`},
		{"POST", "/v1/projects/web/resume", `{}`},
		{"POST", "/v1/projects", `{"path":"/tmp/x"}`},
		{"DELETE", "/v1/projects/web", ``},
		{"POST", "/v1/tasks/t1/accept", `{}`},
		{"POST", "/v1/tasks/t1/merge", `{}`},
		{"POST", "/v1/phone/settings", `{"phone":{"service":"ntfy","url":"https://ntfy.example","topic":"x"}}`},
	}
	e := newStation(t)
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	srv.SetCallers(placer{places: true})
	e.serve(t, srv)
	before := e.snapshot(t)
	for _, r := range reserved {
		code, body := e.do(t, r.method, r.path, stationToken, r.body)
		if code != http.StatusForbidden || !strings.Contains(body, "could not tell which program") {
			t.Errorf("%s %s from an unplaced caller: %d %s; want 403 and the sentence", r.method, r.path, code, body)
		}
	}
	if after := e.snapshot(t); after != before {
		t.Errorf("refused calls reached the station:\n%s\nwas\n%s", after, before)
	}
	// Not reserved: goes through (the history says unverified origin).
	if code, body := e.do(t, "POST", "/v1/sessions/t1.1/nudge", stationToken, `{}`); code/100 != 2 {
		t.Errorf("nudge from an unplaced caller: %d %s", code, body)
	}

	// An OS that places no caller at all: reserved verbs are taken.
	st2, e2 := newBoardEnv(t)
	srv2 := api.NewServer(apitest.Areas(st2), stationToken, nil)
	srv2.SetCallers(placer{places: false})
	e2.serve(t, srv2)
	if err := st2.Projects.PauseProject(t.Context(), "web", "flaky"); err != nil {
		t.Fatal(err)
	}
	if code, body := e2.do(t, "POST", "/v1/projects/web/resume", stationToken, `{}`); code/100 != 2 {
		t.Errorf("resume where the OS places no caller: %d %s", code, body)
	}
	if ps, err := st2.Projects.Projects(t.Context()); err != nil || ps[0].Paused {
		t.Errorf("web after the resume: %+v, %v; want it running", ps, err)
	}
}
