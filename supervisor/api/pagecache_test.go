package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// generational is a station whose board tells its generation, and which
// counts the listings it is asked for.
type generational struct {
	taskArea   // the real station's (apitest.Board), one verb wrapped
	gen, lists atomic.Uint64
	can        bool
}

// taskArea names the embedded area apart from its Tasks verb.
type taskArea = api.Tasks

func (g *generational) BoardGeneration(context.Context) (uint64, bool) { return g.gen.Load(), g.can }

func (g *generational) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	g.lists.Add(1)
	return g.taskArea.Tasks(ctx, f)
}

// A page asked for again while the board's generation holds is the same
// answer without reading the board again; a new generation, a board that
// cannot tell, or another query reads it afresh.
func TestListAnswerKeptWhileTheBoardHolds(t *testing.T) {
	st := apitest.Board(t, "web")
	g := &generational{taskArea: st.Tasks, can: true}
	for range 150 {
		if _, err := g.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	a := apitest.Areas(st)
	a.Tasks = g
	srv := httptest.NewServer(api.NewServer(a, stationToken, nil).Handler())
	t.Cleanup(srv.Close)
	get := func(query string) (string, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/v1/tasks"+query, nil)
		req.Header.Set("Authorization", "Bearer "+stationToken)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", query, resp.StatusCode, b)
		}
		return string(b), resp.Header.Get(apitype.HeaderNextAfter)
	}
	const page = "?limit=100&order=newest"
	first, next := get(page)
	again, nextAgain := get(page)
	if n := g.lists.Load(); n != 1 {
		t.Errorf("two listings of an unchanged board read it %d times, want once", n)
	}
	if again != first || nextAgain != next || next == "" {
		t.Errorf("the kept answer differs: cursor %q then %q", next, nextAgain)
	}

	get("?limit=10")
	if n := g.lists.Load(); n != 2 {
		t.Errorf("another query read the board %d times in all, want 2", n)
	}

	if _, err := g.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "newest"}); err != nil {
		t.Fatal(err)
	}
	g.gen.Add(1)
	changed, _ := get(page)
	if n := g.lists.Load(); n != 3 || changed == first {
		t.Errorf("after the board changed: %d reads in all (want 3), answer changed %v", n, changed != first)
	}

	g.can = false
	get(page)
	get(page)
	if n := g.lists.Load(); n != 5 {
		t.Errorf("a board that cannot tell its generation was read %d times in all, want 5", n)
	}
}
