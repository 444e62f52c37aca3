package pgstore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The board's project settings: windows are kept beside the cap, a cap
// written the old way keeps them, every station reads them, and a project
// with nothing left set has no row.
func TestProjectSettingsWindows(t *testing.T) {
	url := newDB(t)
	ctx := context.Background()
	st := openStore(t, url, "A")
	if w, err := st.ProjectWindows(ctx); err != nil || len(w) != 0 {
		t.Fatalf("a new board's windows: %v, %v; want none", w, err)
	}

	got, err := UpdateProjectCap(ctx, url, "web", func(c *ProjectCap) {
		c.Concurrency = 2
		c.IdleWindow, c.ReviewIdleWindow = 15*time.Minute, 30*time.Minute
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ProjectCap{Project: "web", Concurrency: 2, IdleWindow: 15 * time.Minute, ReviewIdleWindow: 30 * time.Minute}
	if !equalCap(got, want) {
		t.Fatalf("wrote %+v, want %+v", got, want)
	}
	// `board cap web 3 --stations A,B`, as before the windows: they stay.
	if err := SetProjectCap(ctx, url, ProjectCap{Project: "web", Concurrency: 3, Stations: []string{"A", "B"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateProjectCap(ctx, url, "docs", func(c *ProjectCap) { c.BlockWindow = 20 * time.Minute }); err != nil {
		t.Fatal(err)
	}
	if err := SetProjectCap(ctx, url, ProjectCap{Project: "api", Concurrency: 1}); err != nil {
		t.Fatal(err)
	}
	caps, err := ProjectCaps(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	wantAll := []ProjectCap{
		{Project: "api", Concurrency: 1},
		{Project: "docs", BlockWindow: 20 * time.Minute},
		{Project: "web", Concurrency: 3, Stations: []string{"A", "B"}, IdleWindow: 15 * time.Minute, ReviewIdleWindow: 30 * time.Minute},
	}
	if !slices.EqualFunc(caps, wantAll, equalCap) {
		t.Fatalf("the board's settings:\n%+v\nwant:\n%+v", caps, wantAll)
	}
	// The cap still binds: the stations list leaves C out.
	c := openStore(t, url, "C")
	if _, err := c.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := c.ClaimLeased(ctx, "web", 5, time.Minute); err != nil || ok {
		t.Fatalf("station C claimed web's task (ok %v, err %v); the board lets only A and B run it", ok, err)
	}

	w, err := st.ProjectWindows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantW := map[string]supervisor.BoardWindows{
		"docs": {Block: 20 * time.Minute},
		"web":  {Idle: 15 * time.Minute, ReviewIdle: 30 * time.Minute},
	}
	if len(w) != len(wantW) || w["docs"] != wantW["docs"] || w["web"] != wantW["web"] {
		t.Fatalf("station A reads the windows %+v, want %+v", w, wantW)
	}

	// Clearing what is left removes the row; a cap of 0 alone keeps the
	// windows.
	if _, err := UpdateProjectCap(ctx, url, "docs", func(c *ProjectCap) { c.BlockWindow = 0 }); err != nil {
		t.Fatal(err)
	}
	if err := SetProjectCap(ctx, url, ProjectCap{Project: "web"}); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, st, "SELECT count(*) FROM project_settings WHERE project = 'docs'"); n != 0 {
		t.Errorf("docs has %d rows with nothing set", n)
	}
	caps, err = ProjectCaps(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	wantAll = []ProjectCap{{Project: "api", Concurrency: 1}, {Project: "web", IdleWindow: 15 * time.Minute, ReviewIdleWindow: 30 * time.Minute}}
	if !slices.EqualFunc(caps, wantAll, equalCap) {
		t.Fatalf("after clearing: %+v, want %+v", caps, wantAll)
	}
}

// A board older than the windows (schema 4) answers with its caps alone,
// without being migrated by a read.
func TestProjectCapsOnAnOlderBoard(t *testing.T) {
	url, pool := olderBoard(t, 4)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "INSERT INTO project_settings (project, concurrency, updated_at) VALUES ('web', 2, now())"); err != nil {
		t.Fatal(err)
	}
	caps, err := ProjectCaps(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if want := []ProjectCap{{Project: "web", Concurrency: 2}}; !slices.EqualFunc(caps, want, equalCap) {
		t.Fatalf("caps %+v, want %+v", caps, want)
	}
	v, err := version(ctx, pool)
	if err != nil || v != 4 {
		t.Fatalf("the board is at version %d (%v) after a read; a read must not migrate", v, err)
	}
}

func equalCap(a, b ProjectCap) bool {
	return a.Project == b.Project && a.Concurrency == b.Concurrency && slices.Equal(a.Stations, b.Stations) &&
		a.Windows() == b.Windows()
}
