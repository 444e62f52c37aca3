package app

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/client"
)

// opened is an app whose browser is a list: the links OpenURL was given.
type opened struct {
	fyne.App
	links chan string
}

func (o opened) OpenURL(u *url.URL) error { o.links <- u.String(); return nil }

// menuLabels are the items of a card's "…" menu.
func menuLabels(t *testing.T, win fyne.Window, card fyne.CanvasObject) []string {
	t.Helper()
	var out []string
	for l := range cardMenu(t, win, card) {
		out = append(out, l)
	}
	return out
}

// A done card with commits not merged yet, whose project has a GitHub
// source, offers Open pull request in its "…" menu (Merge stays its
// primary action); a blocked card does not, nor a done card of a project
// without one. Picking it opens the pull request in the background and
// says where it is, with a button that opens it in the browser.
func TestDoneCardOffersOpenPullRequest(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t3": {Branch: "bs/t3", Base: "1111111aaaa", Head: "2222222bbbb", Commits: []string{"2222222 add lock timeout"}},
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}},
	}
	fake.prURL = "https://github.com/acme/web/pull/1"
	d := openFullBoard(t, fake)
	if got := menuLabels(t, d.win, cardOf(t, d, "t4")); contains(got, "Open pull request") {
		t.Errorf("without a GitHub source the done card's menu is %q", got)
	}
	withSource := fullBoard(t0)
	withSource.Sources = []supervisor.SourceState{{Name: "linear ENG", Kind: "linear", Project: "web", OK: true}}
	d.u.apply(withSource)
	d.reading.Wait()
	if got := menuLabels(t, d.win, cardOf(t, d, "t4")); contains(got, "Open pull request") {
		t.Errorf("with only a Linear source the done card's menu is %q", got)
	}
	withSource.Sources = append(withSource.Sources, supervisor.SourceState{Name: "github acme/web", Kind: "github", Project: "web", OK: true})
	d.u.apply(withSource)
	d.reading.Wait()
	card := cardOf(t, d, "t4")
	if got := primaryOf(card); got != "Merge" {
		t.Errorf("the done card's primary action is %q, want Merge", got)
	}
	if got := menuLabels(t, d.win, cardOf(t, d, "t3")); contains(got, "Open pull request") {
		t.Errorf("the blocked card's menu is %q", got)
	}
	// The diff window offers it beside Merge, the blocked task's not.
	fake.diffs = map[string]string{"t3": "diff --git a/db.go b/db.go\n", "t4": "diff --git a/h.go b/h.go\n"}
	for _, id := range []string{"t3", "t4"} {
		var tk supervisor.Task
		for _, x := range d.u.snap.Tasks {
			if x.ID == id {
				tk = x
			}
		}
		d.u.showDiff(tk, d.works[id].work)
		nextCall(t, fake)
		d.u.acts.Wait()
		for _, x := range fyne.CurrentApp().Driver().AllWindows() {
			if strings.HasPrefix(x.Title(), "Diff "+id) {
				all := texts(x.Content())
				if has := contains(all, "Open pull request"); has != (id == "t4") || !contains(all, "Merge") {
					t.Errorf("the diff window of %s says %q", id, all)
				}
				x.Close()
			}
		}
	}
	links := make(chan string, 1)
	d.u.app = opened{d.u.app, links}
	pickMenu(t, d.win, cardOf(t, d, "t4"), "Open pull request")
	if got := nextCall(t, fake); got != (call{"PullRequest", "t4", ""}) {
		t.Fatalf("Open pull request called %+v", got)
	}
	d.u.acts.Wait()
	var dlg fyne.CanvasObject
	eventually(t, "the pull request's dialog", func() bool {
		dlg = d.win.Canvas().Overlays().Top()
		return dlg != nil && strings.Contains(strings.Join(texts(dlg), "\n"), "Pull request opened: https://github.com/acme/web/pull/1")
	})
	test.Tap(findButton(t, dlg, "Open in browser"))
	select {
	case l := <-links:
		if l != fake.prURL {
			t.Errorf("the browser opened %q", l)
		}
	default:
		t.Error("Open in browser opened nothing")
	}
}

// Where the station refuses (here: the project has no GitHub source any
// more, though the board last said it had), the dialog is the station's
// own sentence, through the real API.
func TestOpenPullRequestShowsTheStationsRefusal(t *testing.T) {
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Git: true})
	tk, err := env.Station.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "fix login"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.NewServer(apitest.Areas(env.Station), "tok", nil).Handler())
	defer srv.Close()
	u := newTestUI(t, &client.Client{BaseURL: srv.URL, Token: "tok"}, t0)
	u.ShowDashboard()
	t.Cleanup(u.dash.hide)
	u.openPullRequest(u.dash.win, tk)
	u.acts.Wait()
	var got string
	eventually(t, "the station's refusal", func() bool {
		if top := u.dash.win.Canvas().Overlays().Top(); top != nil {
			got = strings.Join(texts(top), "\n")
		}
		return strings.Contains(got, "project web has no GitHub source; add a [[sources]] table")
	})
	if strings.Contains(got, "Pull request opened") {
		t.Errorf("the refusal's dialog says %q", got)
	}
}
