package app

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/client"
)

// The tray's Console for a session, with no dashboard running: the tray
// starts a dashboard process and hands it the console at once, before
// that process has heard from the station. The console says it is
// connecting (never that no station runs) and attaches once the station
// answers: the session's screen shows, from a real session of a real
// station.
func TestConsoleFromAColdStartAttaches(t *testing.T) {
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true})
	if _, err := env.Station.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "one"}); err != nil {
		t.Fatal(err)
	}
	s, _ := env.Session(t, "t1")
	srv := httptest.NewServer(api.NewServer(apitest.Areas(env.Station), "tok", nil).Handler())
	defer srv.Close()
	cl := &client.Client{BaseURL: srv.URL, Token: "tok"}
	u := newTestUI(t, cl, t0)
	u.conn.setClient(nil) // the new dashboard process: no answer from the station yet
	u.Do(MenuLine{Action: ActConsole, ID: s.ID})
	c := u.consoles[s.ID]
	if c == nil {
		t.Fatal("no console window")
	}
	defer c.win.Close()
	// Nothing else writes the status line until the console attaches.
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if got := c.status.Text; strings.Contains(got, "no station") {
			t.Fatalf("before the station's first answer the console says %q, and never attaches", got)
		}
	}
	u.conn.setClient(cl)
	u.apply(Snapshot{Connected: true, Tasks: []supervisor.Task{{ID: "t1", Project: "web", Title: "one", State: supervisor.TaskWorking}}, Sessions: []supervisor.SessionInfo{s}})
	screen := func() string { return RowsText(c.term.Rows()) }
	testwait.Eventually(t, time.Minute, func() bool { return strings.Contains(screen(), "ready") },
		"the console to show the session's screen once the station answered", testwait.Later(screen))
}
