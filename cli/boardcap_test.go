package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
)

// board cap refuses what it cannot store with one sentence and exit 2,
// before it opens any board.
func TestBoardCapRefusesBadInput(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("max_sessions = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"web", "--idle-window", "500ms"}, `--idle-window "500ms" is not a window`},
		{[]string{"web", "--block-window", "soon"}, `--block-window "soon" is not a window`},
		{[]string{"web", "--stations", "a,b"}, "--stations goes with CONCURRENCY"},
		{[]string{"web", "two"}, `concurrency "two" is not a whole number of sessions`},
		{[]string{"web", "2"}, "board cap is for a shared board"},
	} {
		r := run(t, "", append([]string{"--home", home, "board", "cap"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("board cap %v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// board cap sets a project's windows on a real shared board beside its cap,
// keeps them when only the cap changes, and board cap PROJECT and board
// status print them.
func TestBoardCapWindows(t *testing.T) {
	board := pgtest.NewDB(t, 0)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), fmt.Appendf(nil, "board = %q\nstation = \"buildbox\"\n", board), 0o600); err != nil {
		t.Fatal(err)
	}
	cap := func(args ...string) string {
		t.Helper()
		r := run(t, "", append([]string{"--home", home, "board", "cap"}, args...)...)
		if r.code != 0 {
			t.Fatalf("board cap %v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		return r.stdout
	}
	const both = "project web: at most 2 sessions across all stations\nproject web: watchdog windows idle_window 15m, review_idle_window 30m (every station waits at least this long)\n"
	if got := cap("web", "2", "--idle-window", "15m", "--review-idle-window", "30m"); got != both {
		t.Fatalf("board cap web 2 --idle-window 15m --review-idle-window 30m:\n%s\nwant:\n%s", got, both)
	}
	if got := cap("web"); got != both {
		t.Fatalf("board cap web:\n%s\nwant:\n%s", got, both)
	}
	if got := cap("web", "3", "--stations", "buildbox,laptop"); !strings.Contains(got, "at most 3 sessions across all stations, on buildbox, laptop\n") || !strings.Contains(got, "idle_window 15m, review_idle_window 30m") {
		t.Fatalf("the cap's old form lost the windows:\n%s", got)
	}
	if got := cap("web", "--idle-window", "0", "--block-window", "1h30m"); !strings.Contains(got, "watchdog windows block_window 1h30m, review_idle_window 30m (") {
		t.Fatalf("board cap web --idle-window 0 --block-window 1h30m:\n%s", got)
	}
	r := run(t, "", "--home", home, "board", "status", "--json")
	raw := map[string]any{}
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil || r.code != 0 {
		t.Fatalf("board status --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	p, _ := raw["projects"].([]any)
	if len(p) != 1 || fmt.Sprint(p[0]) != "map[block_window:1h30m concurrency:3 project:web review_idle_window:30m stations:[buildbox laptop]]" {
		t.Fatalf("board status --json projects: %v", raw["projects"])
	}
	if got := cap("web", "0"); got != "project web: no board cap; each station's config decides\n" {
		t.Fatalf("board cap web 0: %q", got)
	}
}
