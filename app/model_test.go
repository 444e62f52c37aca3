package app

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func sess(id, task string, st supervisor.SessionState) supervisor.SessionInfo {
	return supervisor.SessionInfo{ID: id, TaskID: task, Project: "web", State: st, StartedAt: t0, LastOutputAt: t0}
}

func task(id string, st supervisor.TaskState) supervisor.Task {
	return supervisor.Task{ID: id, Project: "web", Title: "Task " + id, State: st, Attempt: 1, CreatedAt: t0}
}

func TestCount(t *testing.T) {
	s := Snapshot{Connected: true,
		Tasks: []supervisor.Task{task("t1", supervisor.TaskTodo), task("t2", supervisor.TaskWorking), task("t3", supervisor.TaskBlocked),
			task("t4", supervisor.TaskDone), task("t5", supervisor.TaskReview), task("t6", supervisor.TaskCancelled)},
		Sessions: []supervisor.SessionInfo{sess("s1", "t2", supervisor.SessWorking), sess("s2", "t5", supervisor.SessReviewing),
			sess("s3", "t7", supervisor.SessQuiet), sess("s4", "t8", supervisor.SessNudged), sess("s5", "t9", supervisor.SessNeedsPermission),
			sess("s6", "t10", supervisor.SessStarting), sess("s7", "t11", supervisor.SessWaiting), sess("s8", "t12", supervisor.SessIdle)},
	}
	got := Count(s)
	want := Counts{Todo: 1, Working: 3, Reviewing: 1, Idle: 3, Permission: 1, Blocked: 1, Done: 1}
	if got != want {
		t.Fatalf("Count = %+v, want %+v", got, want)
	}
	if h := got.Header(); h != "Working 3 · Reviewing 1 · Idle 3 · Needs you 1 · Blocked 1" {
		t.Errorf("Header = %q", h)
	}
}

func TestBadgeFor(t *testing.T) {
	W, R, Q, I, N, P, S := supervisor.SessWorking, supervisor.SessReviewing, supervisor.SessQuiet, supervisor.SessIdle,
		supervisor.SessNudged, supervisor.SessNeedsPermission, supervisor.SessStarting
	tests := []struct {
		name     string
		sessions []supervisor.SessionState
		blocked  int
		offline  bool
		want     Badge
	}{
		{"nothing", nil, 0, false, Badge{LevelNone, 0}},
		{"offline wins over everything", []supervisor.SessionState{W}, 2, true, Badge{LevelOffline, 0}},
		// The count is what waits for a person (blocked, needs you),
		// whatever the level: idle ones the watchdog nudges itself.
		{"working", []supervisor.SessionState{W, S, Q}, 0, false, Badge{LevelWorking, 0}},
		{"reviewing beats working", []supervisor.SessionState{W, R}, 0, false, Badge{LevelReviewing, 0}},
		{"idle beats reviewing", []supervisor.SessionState{W, R, I}, 0, false, Badge{LevelAttention, 0}},
		{"nudged is attention", []supervisor.SessionState{N, W}, 0, false, Badge{LevelAttention, 0}},
		{"permission is attention", []supervisor.SessionState{P, I}, 0, false, Badge{LevelAttention, 1}},
		{"blocked beats all", []supervisor.SessionState{P, I, R, W}, 2, false, Badge{LevelBlocked, 3}},
		{"blocked alone", nil, 1, false, Badge{LevelBlocked, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Snapshot{Connected: !tt.offline}
			for i, st := range tt.sessions {
				s.Sessions = append(s.Sessions, sess(string(rune('a'+i)), "", st))
			}
			for range tt.blocked {
				s.Tasks = append(s.Tasks, task("tb", supervisor.TaskBlocked))
			}
			if got := BadgeFor(s); got != tt.want {
				t.Errorf("BadgeFor = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCardFor(t *testing.T) {
	now := t0.Add(3*time.Minute + 12*time.Second)
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	blocked := task("t3", supervisor.TaskBlocked)
	blocked.Reason = "idle for 10m: no output, no commits, no CPU"
	blocked.Attempt = 2
	asks := &supervisor.WaitingOn{Kind: supervisor.AskPermission, Tool: "Bash", Input: "npm publish"}
	tests := []struct {
		name string
		t    supervisor.Task
		si   *supervisor.SessionInfo
		want Card
	}{
		{"todo", task("t1", supervisor.TaskTodo), nil,
			Card{Title: "Task t1", Meta: "t1 · web · attempt 1", Brief: "web", Badge: "to do", Level: LevelNone}},
		{"working, nudge coming", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessWorking, LastOutputAt: t0, NextAt: at(108 * time.Second), NextAction: "nudge"},
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "working", Level: LevelWorking, Session: "s2",
				Timing: "silent 3 min · nudge in 2 min"}},
		{"nudged, block coming", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessNudged, LastOutputAt: t0, NextAt: at(182 * time.Second), NextAction: "block"},
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "idle · nudged", Level: LevelAttention, Session: "s2",
				Timing: "silent 3 min · blocks in 3 min"}},
		{"quiet: building", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessQuiet, LastOutputAt: t0, Why: "quiet: building", NextAt: at(time.Minute), NextAction: "check"},
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "working quietly", Level: LevelWorking, Session: "s2",
				Timing: "silent 3 min · quiet: building · check in 1 min"}},
		{"printing", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessWorking, LastOutputAt: now.Add(-time.Second)},
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "working", Level: LevelWorking, Session: "s2", Timing: "printing"}},
		{"reviewing", task("t5", supervisor.TaskReview),
			&supervisor.SessionInfo{ID: "s5", TaskID: "t5", State: supervisor.SessReviewing, LastOutputAt: t0, NextAt: at(-time.Second), NextAction: "nudge"},
			Card{Title: "Task t5", Meta: "t5 · web · attempt 1", Brief: "web", Badge: "reviewing", Level: LevelReviewing, Session: "s5",
				Timing: "silent 3 min · nudge now"}},
		{"needs permission", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessNeedsPermission, LastOutputAt: t0},
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "needs you", Level: LevelAttention, Session: "s2",
				Timing: "waiting for you to answer a prompt in its console"}},
		{"asks to run a command", task("t2", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "s2", TaskID: "t2", State: supervisor.SessNeedsPermission, LastOutputAt: t0,
				WaitingOn: asks, Activity: "running `npm publish`"},
			// The command has not run: the card says what it asks, never
			// that it runs.
			Card{Title: "Task t2", Meta: "t2 · web · attempt 1", Brief: "web", Badge: "needs you", Level: LevelAttention, Session: "s2",
				Timing: "asks you: Bash: npm publish", Asks: asks}},
		{"pinned to a station", func() supervisor.Task { t := task("t7", supervisor.TaskTodo); t.Pinned = "buildbox"; return t }(), nil,
			Card{Title: "Task t7", Meta: "t7 · web · attempt 1", Brief: "web", Badge: "to do", Level: LevelNone, Pinned: "pinned to station buildbox: its work is only there"}},
		{"on another station", task("t6", supervisor.TaskWorking),
			&supervisor.SessionInfo{ID: "t6.1", TaskID: "t6", State: supervisor.SessWorking, Station: "buildbox"},
			Card{Title: "Task t6", Meta: "t6 · web · attempt 1 · on buildbox", Brief: "web · on buildbox", Badge: "working", Level: LevelWorking, Session: "t6.1"}},
		{"blocked", blocked, nil,
			Card{Title: "Task t3", Meta: "t3 · web · attempt 2", Brief: "web · attempt 2", Badge: "blocked", Level: LevelBlocked, Reason: blocked.Reason}},
		{"done", task("t4", supervisor.TaskDone), nil,
			Card{Title: "Task t4", Meta: "t4 · web · attempt 1", Brief: "web", Badge: "done", Level: LevelNone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CardFor(tt.t, tt.si, now); got != tt.want {
				t.Errorf("CardFor =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestShort(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0 s", 45 * time.Second: "45 s", 108 * time.Second: "2 min", 182 * time.Second: "3 min",
		2*time.Hour + 5*time.Minute: "2 h 5 min", 1499 * time.Millisecond: "1 s", 59600 * time.Millisecond: "1 min",
	} {
		if got := Short(d); got != want {
			t.Errorf("Short(%v) = %q, want %q", d, got, want)
		}
	}
}

// A station with no projects says what to do first, as the menu's first
// line; a newer release is a line with its link.
func TestTrayLinesFirstProjectAndUpdate(t *testing.T) {
	lines := TrayLines(Snapshot{Connected: true})
	if lines[0].Label != "Add your first project" || lines[0].Action != ActAddProject {
		t.Fatalf("first line %+v", lines[0])
	}
	s := Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}, Update: UpdateNote{Version: "0.4.0", URL: "https://example.invalid/v0.4.0"}}
	lines = TrayLines(s)
	if lines[0].Label == FirstProjectLine {
		t.Fatal("a station with a project still asks for its first")
	}
	found := false
	for _, l := range lines {
		if l.Label == "Update available: v0.4.0" && l.Action == ActOpenURL && l.ID == "https://example.invalid/v0.4.0" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no update line: %+v", lines)
	}
	s.Update = UpdateNote{}
	for _, l := range TrayLines(s) {
		if strings.HasPrefix(l.Label, "Update available") {
			t.Fatal("an update line with no update")
		}
	}
}

// The tooltip's words, the menu's count line and the dashboard's figures
// come from one Counts: whatever the tooltip says waits for a person, is
// idle or needs you is the same number the figures say under the same
// name. (It once said "a session waits for you, 1 task waits for you —
// … Needs you 0" of one idle session.)
func TestCountsAgreeInEveryPlace(t *testing.T) {
	W, I, N, P, Wa := supervisor.SessWorking, supervisor.SessIdle, supervisor.SessNudged, supervisor.SessNeedsPermission, supervisor.SessWaiting
	for _, c := range []struct {
		name     string
		sessions []supervisor.SessionState
		blocked  int
	}{
		{"one idle session", []supervisor.SessionState{I}, 0},
		{"nudged and waiting", []supervisor.SessionState{N, Wa, W}, 0},
		{"one asks", []supervisor.SessionState{P}, 0},
		{"two ask, one idle", []supervisor.SessionState{P, P, I}, 0},
		{"blocked and idle", []supervisor.SessionState{I}, 1},
		{"blocked, asking, working", []supervisor.SessionState{P, W}, 2},
		{"working alone", []supervisor.SessionState{W}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}}
			for i, st := range c.sessions {
				s.Sessions = append(s.Sessions, sess(string(rune('a'+i)), "", st))
			}
			for i := range c.blocked {
				s.Tasks = append(s.Tasks, task("tb"+string(rune('0'+i)), supervisor.TaskBlocked))
			}
			tip := TooltipFor(s)
			head, lead, ok := strings.Cut(strings.TrimPrefix(tip, "Build Station: "), " — ")
			if !ok {
				t.Fatalf("tooltip %q has no counts after its words", tip)
			}
			lead, head = head, lead
			figures := figuresOf(t, head)
			if menu := TrayLines(s); !slices.ContainsFunc(menu, func(l MenuLine) bool { return l.Label == head }) {
				t.Errorf("the menu has no line %q (the tooltip's counts): %q", head, MenuSignature(menu))
			}
			got := Count(s)
			dash := map[string]int{"Working": got.Working, "Reviewing": got.Reviewing, "Idle": got.Idle, "Needs you": got.Permission, "Blocked": got.Blocked}
			for name, n := range dash {
				if figures[name] != n {
					t.Errorf("the dashboard's %s is %d, the tooltip's %d (%q)", name, n, figures[name], tip)
				}
			}
			said := leadCounts(lead)
			for name, n := range said {
				if name == "waits for you" {
					continue
				}
				if want := figures[name]; n != want {
					t.Errorf("the tooltip's words say %d %s, its figures %s %d: %q", n, name, name, want, tip)
				}
			}
			if wait := said["waits for you"]; wait != figures["Needs you"]+figures["Blocked"] {
				t.Errorf("the tooltip says %d wait for you; needs you %d + blocked %d: %q", wait, figures["Needs you"], figures["Blocked"], tip)
			}
		})
	}
}

// figuresOf reads "Working 1 · Reviewing 0 · Idle 1 · Needs you 0 · Blocked 0".
func figuresOf(t *testing.T, head string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, f := range strings.Split(head, " · ") {
		i := strings.LastIndexByte(f, ' ')
		n, err := strconv.Atoi(f[i+1:])
		if i < 0 || err != nil {
			t.Fatalf("figure %q of %q is not NAME N", f, head)
		}
		out[f[:i]] = n
	}
	return out
}

// leadCounts reads the numbers the tooltip's words give, by the figure
// they name: "1 blocked, 2 need you, 1 idle" or "a session waits for you".
func leadCounts(lead string) map[string]int {
	out := map[string]int{}
	re := regexp.MustCompile(`(\d+|a|an|one) (?:tasks? |sessions? )?(blocked|is blocked|are blocked|needs? you|idle|is idle|are idle|waits? for you)`)
	names := map[string]string{"blocked": "Blocked", "need you": "Needs you", "needs you": "Needs you", "idle": "Idle", "wait for you": "waits for you", "waits for you": "waits for you"}
	for _, m := range re.FindAllStringSubmatch(lead, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = 1
		}
		what := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(m[2], "is "), "are "), "")
		out[names[what]] += n
	}
	return out
}
