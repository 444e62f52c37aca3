//go:build linux

package station_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Stations sharing a PostgreSQL board: two homes, one database, one project
// folder, told apart by BUILDSTATION_STATION as two machines would be by
// their host names.

// sharedDB is a database of the test's own on the server of
// BUILDSTATION_TEST_PG: two stations per test, tests in parallel.
func sharedDB(t *testing.T) string { return pgtest.NewDB(t, 6) }

// sharedConfig is config.toml for one station of a shared board with one
// fake-agent project "web" at dir.
func sharedConfig(db, dir string, maxSessions, concurrency int) string {
	return fmt.Sprintf("max_sessions = %d\nboard = %q\nlease = \"2s\"\n", maxSessions, db) +
		rig.ProjectTOML("web", dir, "30s", "30s", fmt.Sprintf("concurrency = %d", concurrency))
}

// startShared starts station name on a fresh home sharing db.
func startShared(t *testing.T, name, cfg string) *rig.Station {
	t.Helper()
	return rig.StartOn(t, rig.WriteConfig(t, cfg), "BUILDSTATION_STATION="+name)
}

// claimedBy is the station that claimed the task's latest attempt: the actor
// of its last todo → working move.
func claimedBy(t rig.Task) string {
	actor := ""
	for _, h := range t.History {
		if h.From == "todo" && h.To == "working" {
			actor = h.Actor
		}
	}
	return actor
}

// Tasks added at one station run at the other too: each takes a slot of the
// project's two, one session at a time (max_sessions = 1).
func TestSharedBoardSplitsWork(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	cfg := sharedConfig(db, dir, 1, 2)
	a := startShared(t, "A", cfg)
	b := startShared(t, "B", cfg)
	var ids []string
	for i := range 6 {
		ids = append(ids, a.AddTask("web", fmt.Sprintf("split %d", i), "print hi; sleep 1s; complete done"))
	}
	by := map[string]int{}
	for _, id := range ids {
		tk := a.WaitState(id, "done", 60*time.Second)
		who := claimedBy(tk)
		by[who]++
		if who == "B" {
			if tr := b.Transcript(id, 1); !strings.Contains(tr, "hi") {
				t.Errorf("task %s ran at B, but B's transcript is %q", id, tr)
			}
			if _, err := os.Stat(filepath.Join(a.Home, "logs", id+".1.log")); err == nil {
				t.Errorf("task %s ran at B, but A has a transcript of it too", id)
			}
		}
	}
	if by["A"] == 0 || by["B"] == 0 || by["A"]+by["B"] != len(ids) {
		t.Fatalf("tasks claimed by %v, want both A and B and nobody else\nA:\n%s\nB:\n%s", by, a.Log, b.Log)
	}
	// B sees the same board.
	if got := b.Task(ids[0]); got.State != "done" {
		t.Errorf("B sees task %s as %s", ids[0], got.State)
	}
}

// A station killed mid-task loses it when its lease runs out: another
// station blocks it naming the dead one, and takes the queue on. A station
// starting meanwhile leaves the other's running task alone.
func TestSharedBoardReapsDeadStation(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	cfg := sharedConfig(db, dir, 4, 1)
	a := startShared(t, "A", cfg)
	running := a.AddTask("web", "long", "heartbeat 200ms forever")
	a.WaitState(running, "working", 15*time.Second)

	b := startShared(t, "B", cfg)
	queued := b.AddTask("web", "queued", "print q; complete queued done")
	// B's recovery and scheduler must not touch A's task, nor run a second
	// session of the project (concurrency 1 across both stations).
	time.Sleep(3 * time.Second) // longer than the lease: A renews meanwhile
	if tk := b.Task(running); tk.State != "working" {
		t.Fatalf("A's running task is %s (%s) after B started\nB:\n%s", tk.State, tk.Reason, b.Log)
	}
	if tk := b.Task(queued); tk.State != "todo" {
		t.Fatalf("queued task is %s with the only slot held by A", tk.State)
	}

	a.Kill9()
	tk := b.WaitState(running, "blocked", 20*time.Second)
	if !strings.Contains(tk.Reason, "station A lost") {
		t.Errorf("reason %q does not name station A", tk.Reason)
	}
	done := b.WaitState(queued, "done", 20*time.Second)
	if who := claimedBy(done); who != "B" {
		t.Errorf("queued task claimed by %q, want B", who)
	}
}

// A burst on two stations runs every task exactly once: the board's leases,
// not luck, keep the stations apart.
func TestSharedBoardRunsEachTaskOnce(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	cfg := sharedConfig(db, dir, 4, 2)
	a := startShared(t, "A", cfg)
	b := startShared(t, "B", cfg)
	var ids []string
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		ids = append(ids, s.AddTask("web", fmt.Sprintf("burst %d", i), "print hi; complete done"))
	}
	for _, id := range ids {
		a.WaitState(id, "done", 90*time.Second)
	}
	started := regexp.MustCompile(`msg="session started".* task=(\S+)`)
	count := map[string]int{}
	per := map[string]int{}
	for name, s := range map[string]*rig.Station{"A": a, "B": b} {
		for _, m := range started.FindAllStringSubmatch(s.Log.String(), -1) {
			count[m[1]]++
			per[name]++
		}
	}
	for _, id := range ids {
		if count[id] != 1 {
			t.Errorf("task %s started %d sessions, want exactly 1", id, count[id])
		}
	}
	if len(count) != len(ids) {
		t.Errorf("sessions started for %d tasks, want %d: %v", len(count), len(ids), count)
	}
	t.Logf("sessions per station: %v", per)
}

// Every station shows every station's sessions, live, each naming the
// station that runs it; the console stays on that station's machine.
func TestSharedBoardShowsEveryStationsSessions(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	cfg := fmt.Sprintf("max_sessions = 4\nboard = %q\nlease = \"2s\"\n", db) +
		rig.ProjectTOML("web", dir, "30s", "30s", "concurrency = 1", `stations = ["A"]`)
	a := startShared(t, "A", cfg)
	b := startShared(t, "B", cfg)

	// A tray on B follows B's event stream.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := client.Dial(b.Home)
	if err != nil {
		t.Fatal(err)
	}
	events, err := cl.Events(ctx)
	if err != nil {
		t.Fatal(err)
	}

	running := a.AddTask("web", "long", "heartbeat 200ms forever")
	a.WaitState(running, "working", 15*time.Second)

	// B's stream hears of A's task and of A's session, naming A.
	var sawTask, sawSession bool
	for !sawTask || !sawSession {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("B's event stream ended\nB:\n%s", b.Log)
			}
			switch {
			case e.Kind == supervisor.EventTask && e.Task != nil && e.Task.ID == running:
				sawTask = true
			case e.Kind == supervisor.EventSession && e.Session != nil && e.Session.TaskID == running:
				if e.Session.Station != "A" {
					t.Fatalf("B's event for A's session names station %q", e.Session.Station)
				}
				sawSession = true
			}
		case <-ctx.Done():
			t.Fatalf("B's stream: task event %v, session event %v\nB:\n%s", sawTask, sawSession, b.Log)
		}
	}

	// session ls on B lists A's session, naming A; A's own names A too.
	var remote rig.Session
	rig.Eventually(t, 15*time.Second, func() (ok bool) {
		remote, ok = b.SessionOf(running)
		return ok
	}, "B to list A's session of "+running, "B:", b.Log)
	own, ok := a.SessionOf(running)
	if !ok || own.Station != "A" || own.ID != remote.ID {
		t.Fatalf("A lists its session as %+v, %v", own, ok)
	}
	if remote.Station != "A" || remote.PID != own.PID || remote.PID == 0 {
		t.Fatalf("B lists A's session as %+v, want station A and pid %d", remote, own.PID)
	}
	if js := b.Must("session", "ls", "--json"); !strings.Contains(js, `"station": "A"`) {
		t.Fatalf("B's session ls --json does not name station A:\n%s", js)
	}

	// status on B counts it.
	var st struct {
		Working  int            `json:"working"`
		Sessions map[string]int `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(b.Must("status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Working != 1 {
		t.Fatalf("B's status counts %d working, want A's session: %+v", st.Working, st)
	}

	// Its console is on A: B says so.
	for verb, args := range map[string][]string{
		"attach": {"session", "attach", remote.ID},
		"send":   {"session", "send", remote.ID, "hello"},
	} {
		_, errOut, code := b.Run(args...)
		want := "session " + remote.ID + " runs on station A; " + verb + " from that machine"
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("%s on B: exit %d, stderr %q; want exit 1 and %q", verb, code, errOut, want)
		}
	}
	if strings.Contains(a.Transcript(running, 1), "hello") {
		t.Errorf("text sent at B reached A's session")
	}

	// board status on B: both stations live, A with the running task's lease.
	var rep struct {
		Kind     string `json:"kind"`
		Version  int    `json:"version"`
		Stations []struct {
			Name   string `json:"name"`
			Leases []struct {
				TaskID    string    `json:"task_id"`
				Project   string    `json:"project"`
				ExpiresAt time.Time `json:"expires_at"`
			} `json:"leases"`
		} `json:"stations"`
	}
	out := b.Must("board", "status", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("board status --json: %v\n%s", err, out)
	}
	if rep.Kind != "postgres" || rep.Version < 2 || len(rep.Stations) != 2 || rep.Stations[0].Name != "A" || rep.Stations[1].Name != "B" {
		t.Fatalf("board status --json = %s", out)
	}
	if l := rep.Stations[0].Leases; len(l) != 1 || l[0].TaskID != running || l[0].Project != "web" || l[0].ExpiresAt.IsZero() {
		t.Fatalf("A's leases = %+v, want the lease on %s", l, running)
	}
	if len(rep.Stations[1].Leases) != 0 {
		t.Fatalf("B's leases = %+v, want none", rep.Stations[1].Leases)
	}
	if txt := b.Must("board", "status"); !strings.Contains(txt, "shared board at ") || !strings.Contains(txt, running) {
		t.Fatalf("board status:\n%s", txt)
	}
}

// A NUL in a task's title (which PostgreSQL refuses in text) is kept as
// U+FFFD, as on SQLite: the add answers 201, not the station's 500, and the
// task runs and blocks with the agent's reason.
func TestSharedBoardTextNUL(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	a := startShared(t, "A", sharedConfig(db, dir, 1, 1))
	task, err := a.Client().AddTask(context.Background(), supervisor.NewTask{Project: "web", Title: "nul\x00title", Body: "script: block stuck\x00here"})
	if err != nil {
		t.Fatalf("add a task with a NUL in its title on a shared board: %v\n%s", err, a.Log)
	}
	if task.Title != "nul\uFFFDtitle" {
		t.Errorf("title %q, want the NUL as U+FFFD", task.Title)
	}
	if tk := a.WaitState(task.ID, "blocked", 30*time.Second); !strings.HasSuffix(tk.Reason, "stuck\uFFFDhere") {
		t.Errorf("blocked with reason %q, want %q", tk.Reason, "stuck\uFFFDhere")
	}
}

// A station paused (SIGSTOP) for longer than its lease while another
// instance starts under its name learns on waking that the name is not its
// own any more: it ends its sessions, says why, and exits non-zero; the new
// instance runs the name's work alone.
func TestSharedBoardPausedStationLosesItsName(t *testing.T) {
	t.Parallel()
	db, dir := sharedDB(t), t.TempDir()
	cfg := fmt.Sprintf("max_sessions = 2\nboard = %q\nlease = \"6s\"\n", db) +
		rig.ProjectTOML("web", dir, "30s", "30s", "concurrency = 2")
	a := startShared(t, "dup", cfg)
	long := a.AddTask("web", "long", "heartbeat 200ms forever")
	a.WaitState(long, "working", 15*time.Second)
	if err := syscall.Kill(a.PID(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(8 * time.Second) // longer than the lease
	b := startShared(t, "dup", cfg)
	if err := syscall.Kill(a.PID(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	code, exited := a.ExitCode(30 * time.Second)
	if !exited {
		t.Fatalf("A woke and goes on as dup beside B\nA:\n%s\nB:\n%s", a.Log, b.Log)
	}
	if code == 0 || !strings.Contains(a.Log.String(), "taken over by a newer instance") {
		t.Errorf("A exited %d; want non-zero and the reason\nA:\n%s", code, a.Log)
	}
	next := b.AddTask("web", "after", "print hi; complete done")
	if tk := b.WaitState(next, "done", 60*time.Second); claimedBy(tk) != "dup" {
		t.Errorf("next task claimed by %q", claimedBy(tk))
	}
}
