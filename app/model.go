package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Snapshot is everything the windows show, as last read from the station.
type Snapshot struct {
	Connected bool
	Err       string // why not connected, for the header
	Tasks     []supervisor.Task
	Sessions  []supervisor.SessionInfo // live ones only
	Projects  []supervisor.ProjectInfo
	// DoneTotal is how many tasks are done on the board: Tasks holds only
	// the newest of them.
	DoneTotal int
	// Board is a shared board's link, nil on a station's own board. While
	// it is down, Tasks, DoneTotal and Projects are the last ones read.
	Board *supervisor.BoardLink
	// Sources are the issue trackers tasks are imported from, as last
	// read; SourceProblems says what a person should do about them.
	Sources []supervisor.SourceState
	// Warnings are what the station found wrong with its surroundings at
	// start, as "buildstation status" says them: which notifier macOS
	// let it use and why, which agent install it picked. The tray shows
	// them, so a person learns why no notice arrives without a terminal.
	Warnings []string
	// Phone is how the [phone] service stands; nil without one.
	Phone *supervisor.PhoneLink
	// AgentNames are the built-in agents the station can run (claude,
	// codex, gemini): what `project add --agent` takes, as the station
	// says them.
	AgentNames []string
	// Update is a newer release the tray found (its daily check): shown
	// as a menu line with its link. Zero: none.
	Update UpdateNote
	// StoppedAt, while not connected, is when the station was last
	// connected: a station that stopped is said to have, not its tasks
	// to be gone.
	StoppedAt time.Time
	// Start is the tray's part in starting a stopped station: the tray
	// process sets it, as it does Update.
	Start StationStart
	// TaskEvents counts, by task id, the station's events about each task
	// since the connection began: an event that changes none of a task's
	// fields (a merge, its work put on record) still says its work may
	// have changed, so its card reads the work again.
	TaskEvents map[string]uint64
}

// UpdateNote is a newer release than this build.
type UpdateNote struct {
	Version string // without the v
	URL     string // its page
}

// SourceProblems are the tray's lines for sources that need a person:
// "Source: github acme/web refused the token (401: …)".
func SourceProblems(s Snapshot) []string {
	var out []string
	for _, src := range s.Sources {
		if src.Problem != "" {
			out = append(out, "Source: "+src.Problem)
		}
	}
	return out
}

// PhoneAway is the tray's line for a phone service that does not take
// notices, in status's words: "Phone: ntfy.example not answering since
// 03:12 — retrying"; empty while it takes them.
func PhoneAway(s Snapshot) string {
	if !s.Connected || s.Phone == nil {
		return ""
	}
	return s.Phone.Away()
}

// BoardAway is the line that says a shared board does not answer, in the
// words of "buildstation status": "Board unreachable since 12:03:10,
// retrying (3 transitions queued)"; empty while it answers.
func BoardAway(s Snapshot) string {
	if !s.Connected || s.Board == nil || s.Board.Reachable {
		return ""
	}
	away := s.Board.Away()
	return strings.ToUpper(away[:1]) + away[1:]
}

// Counts are the figures at the top of the dashboard, in the tray menu
// and in the tooltip: every place that counts takes them from Count, so no
// two say different numbers under one name. They follow the station's own
// Status: starting and quiet sessions work, idle, nudged and waiting ones
// are idle, and reviewing is counted apart.
type Counts struct {
	Todo, Working, Reviewing, Idle int
	// Permission is "Needs you": sessions that ask a person something
	// (a permission, a question) and wait for the answer.
	Permission int
	Blocked    int
	Done       int
}

// Count tallies a snapshot.
func Count(s Snapshot) Counts {
	var c Counts
	for _, t := range s.Tasks {
		switch t.State {
		case supervisor.TaskTodo:
			c.Todo++
		case supervisor.TaskBlocked:
			c.Blocked++
		case supervisor.TaskDone:
			c.Done++
		}
	}
	for _, si := range s.Sessions {
		switch si.State.Group() {
		case supervisor.GroupWorking:
			c.Working++
		case supervisor.GroupReviewing:
			c.Reviewing++
		case supervisor.GroupIdle:
			c.Idle++
		case supervisor.GroupPermission:
			c.Permission++
		}
	}
	c.Done = max(c.Done, s.DoneTotal)
	return c
}

// WaitsForYou is what only a person can move on: blocked tasks and
// sessions that need an answer. Idle sessions are not in it: the watchdog
// nudges them itself.
func (c Counts) WaitsForYou() int { return c.Blocked + c.Permission }

// Header is the tray menu's first line.
func (c Counts) Header() string {
	return fmt.Sprintf("Working %d · Reviewing %d · Idle %d · Needs you %d · Blocked %d", c.Working, c.Reviewing, c.Idle, c.Permission, c.Blocked)
}

// Summary says the counts that want attention in words, with the numbers
// and names of Header: "2 wait for you (1 blocked, 1 needs you), 1 idle";
// "working" or "nothing running" when nothing does.
func (c Counts) Summary() string {
	var why, parts []string
	if c.Blocked > 0 {
		why = append(why, fmt.Sprintf("%d blocked", c.Blocked))
	}
	if c.Permission > 0 {
		why = append(why, fmt.Sprintf("%d %s you", c.Permission, plural(c.Permission, "needs", "need")))
	}
	if n := c.WaitsForYou(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s for you (%s)", n, plural(n, "waits", "wait"), strings.Join(why, ", ")))
	}
	if c.Idle > 0 {
		parts = append(parts, fmt.Sprintf("%d idle", c.Idle))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, ", ")
	case c.Reviewing > 0:
		return "reviewing"
	case c.Working > 0:
		return "working"
	}
	return "nothing running"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Level is how urgent the station's state is; the tray badge shows the
// most urgent one present.
type Level int

const (
	LevelNone      Level = iota // nothing running: grey
	LevelWorking                // green
	LevelReviewing              // blue
	LevelAttention              // idle, nudged, waiting or needs-permission: amber
	LevelBlocked                // red
	LevelOffline                // no station answers yet: grey, with a cross
	LevelStopped                // the station stopped, or none could be reached: red, with a cross
)

var levelNames = [...]string{"none", "working", "reviewing", "attention", "blocked", "offline", "stopped"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "unknown"
}

// Badge is what the tray icon shows: the most urgent level present, as a
// shape, and Counts.WaitsForYou — the same count whatever the level, said
// in words by the tooltip (Counts.Summary).
type Badge struct {
	Level Level
	Count int
}

// BadgeFor picks the most urgent state present: blocked, then anything
// that waits on a person or was nudged, then reviewing, then working.
func BadgeFor(s Snapshot) Badge {
	if !s.Connected {
		if s.StoppedAt.IsZero() && s.Err == "" {
			return Badge{Level: LevelOffline} // connecting
		}
		return Badge{Level: LevelStopped}
	}
	c := Count(s)
	waiting := c.WaitsForYou()
	switch {
	case c.Blocked > 0:
		return Badge{LevelBlocked, waiting}
	case c.Idle+c.Permission > 0:
		return Badge{LevelAttention, waiting}
	case c.Reviewing > 0:
		return Badge{LevelReviewing, waiting}
	case c.Working > 0:
		return Badge{LevelWorking, waiting}
	}
	return Badge{Level: LevelNone, Count: waiting}
}

// TooltipFor is the tray's tooltip for a snapshot: the badge in words, or
// first of all that a shared board does not answer.
func TooltipFor(s Snapshot) string {
	if b := BadgeFor(s); b.Level == LevelStopped {
		if s.Start.Can {
			return "Build Station: " + StationGone(s) + " — " + StartStationLine + " from this menu"
		}
		return "Build Station: " + StationGone(s)
	}
	c := Count(s)
	if away := BoardAway(s); away != "" {
		return "Build Station: " + away + " — " + c.Header()
	}
	return BadgeFor(s).Tooltip(c)
}

// Tooltip says the counts in words, for the tray title where the OS shows
// one: Summary's words, then Header's figures, both from c.
func (b Badge) Tooltip(c Counts) string {
	if b.Level == LevelOffline {
		return "Build Station: no station running"
	}
	return "Build Station: " + c.Summary() + " — " + c.Header()
}

// Columns are the dashboard's, in board order (cancelled tasks are not
// shown).
var Columns = []supervisor.TaskState{supervisor.TaskTodo, supervisor.TaskWorking, supervisor.TaskReview, supervisor.TaskBlocked, supervisor.TaskDone}

// ColumnTitle is a column's heading.
func ColumnTitle(s supervisor.TaskState) string {
	switch s {
	case supervisor.TaskTodo:
		return "To Do"
	case supervisor.TaskWorking:
		// Not "Working": the column holds every task with a session,
		// idle and nudged ones too, and the Working figure above it
		// counts only the sessions at work.
		return "In progress"
	case supervisor.TaskReview:
		return "Review"
	case supervisor.TaskBlocked:
		return "Blocked"
	case supervisor.TaskDone:
		return "Done"
	}
	return string(s)
}

// SessionFor finds the live session running a task, if any.
func SessionFor(s Snapshot, taskID string) (supervisor.SessionInfo, bool) {
	i := slices.IndexFunc(s.Sessions, func(si supervisor.SessionInfo) bool {
		return si.TaskID == taskID && si.State != supervisor.SessEnded
	})
	if i < 0 {
		return supervisor.SessionInfo{}, false
	}
	return s.Sessions[i], true
}

// Card is the text of one task's card.
type Card struct {
	Title string
	Meta  string // "t3 · demo · attempt 2", then " · on buildbox" for a shared board's session: the detail view's
	// Brief is what the board's card says beside its badge: the project,
	// a second attempt, the issue and the station ("demo · attempt 2");
	// the task's id and branch are the detail view's.
	Brief   string
	Badge   string // the state, as the badge says it
	Level   Level  // the badge's colour
	Timing  string // "silent 3 min · nudge in 2 min"; empty when no session
	Reason  string // blocked cards: why
	Pinned  string // a waiting task only one station may run: "pinned to station buildbox: its work is only there"
	Session string // the live session's id, when there is one
	// Asks is what the session's agent asks a person ("Bash: npm
	// publish"), answered from the card; nil when it asks nothing.
	Asks *supervisor.WaitingOn
	// Doing is what the agent does now and what it cost: "running `go
	// test ./...` for 2 min · $1.23 · 41% context".
	Doing string
	// Issue and IssueURL name the issue the task was imported from
	// ("acme/web#12", "ENG-142"); empty for a task added by hand.
	Issue, IssueURL string
	// Upstream is an imported task's latest step that its issue or pull
	// request made ("its pull request #251 was merged", "its issue
	// acme/web#3 was closed upstream"): the history's last reason, when
	// the task is not blocked (a blocked card shows its reason).
	Upstream string
}

// CardFor writes a task's card as of now. A task with a live session shows
// the session's state and the watchdog's clock; one without, its column.
func CardFor(t supervisor.Task, si *supervisor.SessionInfo, now time.Time) Card {
	c := Card{
		Title: t.Title,
		Meta:  fmt.Sprintf("%s · %s · attempt %d", t.ID, t.Project, max(t.Attempt, 1)),
		Brief: t.Project,
		Badge: TaskWords(t.State),
		Level: taskLevel(t.State),
	}
	if t.Attempt > 1 {
		c.Brief += fmt.Sprintf(" · attempt %d", t.Attempt)
	}
	if t.State == supervisor.TaskBlocked {
		c.Reason = t.Reason
	}
	c.Pinned = t.PinNote()
	if !t.External.IsZero() {
		c.Issue, c.IssueURL = t.External.ID, t.External.URL
		c.Meta += " · " + t.External.ID
		c.Brief += " · " + t.External.ID
		if t.State != supervisor.TaskBlocked {
			c.Upstream = t.Reason
		}
	}
	if si == nil || si.State == supervisor.SessEnded {
		return c
	}
	c.Session = si.ID
	if si.Station != "" {
		// A shared board: the console is on that machine only.
		c.Meta += " · on " + si.Station
		c.Brief += " · on " + si.Station
	}
	c.Badge = SessionWords(si.State)
	c.Level = sessionLevel(si.State)
	c.Timing = Timing(*si, now)
	c.Asks = si.WaitingOn
	c.Doing = Doing(*si)
	return c
}

// SessionWords is a session's state as its card's badge and its tray line
// say it: in words, never the code's ("needs-permission"), and beginning
// with the name of the count it is under (Counts.Header), so the figures
// and the cards agree: a nudged session is "idle · nudged", counted Idle.
func SessionWords(s supervisor.SessionState) string {
	switch s {
	case supervisor.SessQuiet:
		return "working quietly"
	case supervisor.SessNudged:
		return "idle · nudged"
	case supervisor.SessWaiting:
		return "idle · waits for input"
	case supervisor.SessNeedsPermission:
		return "needs you"
	}
	return s.String()
}

// TaskWords is a task's state in words, as a card with no live session
// says it: its column's.
func TaskWords(s supervisor.TaskState) string {
	switch s {
	case supervisor.TaskTodo:
		return "to do"
	case supervisor.TaskWorking:
		return "in progress"
	case supervisor.TaskReview:
		return "in review"
	}
	return string(s)
}

// Doing is a session's activity and usage in one line.
func Doing(si supervisor.SessionInfo) string {
	var parts []string
	// While it waits on a person, what it asks is the card's clock line
	// ("asks you: …"): the activity would only say it again.
	if si.Activity != "" && si.WaitingOn == nil {
		parts = append(parts, si.Activity)
	}
	if u := si.Usage; u != nil {
		parts = append(parts, u.Cost())
		if u.ContextPct > 0 {
			parts = append(parts, fmt.Sprintf("%.0f%% context", u.ContextPct))
		}
	}
	return strings.Join(parts, " · ")
}

// Timing is how long the console has been silent and what the watchdog
// does next: "silent 3 min · nudge in 2 min", or "quiet: building" when
// other evidence says the silence is healthy.
func Timing(si supervisor.SessionInfo, now time.Time) string {
	var parts []string
	switch si.State {
	case supervisor.SessNeedsPermission:
		if si.WaitingOn != nil {
			return "asks you: " + si.WaitingOn.Line()
		}
		return "waiting for you to answer a prompt in its console"
	case supervisor.SessWaiting:
		parts = append(parts, "waiting for input")
	}
	if !si.LastOutputAt.IsZero() {
		if d := now.Sub(si.LastOutputAt); d >= 5*time.Second {
			parts = append(parts, "silent "+Short(d))
		} else {
			parts = append(parts, "printing")
		}
	}
	if si.State == supervisor.SessQuiet && si.Why != "" {
		parts = append(parts, si.Why)
	}
	if si.NextAt != nil && si.NextAction != "" {
		left := si.NextAt.Sub(now)
		verb := map[string]string{"nudge": "nudge", "block": "blocks", "check": "check"}[si.NextAction]
		if verb == "" {
			verb = si.NextAction
		}
		if left > 0 {
			parts = append(parts, verb+" in "+Short(left))
		} else {
			parts = append(parts, verb+" now")
		}
	}
	return strings.Join(parts, " · ")
}

// Short says a duration the way the cards do, in the plain words of
// supervisor.Spoken: under a minute to the second ("40 s"), longer to the
// nearest minute ("5 min", "1 h 5 min"), so a clock that counts down reads
// "nudge in 5 min", not "4m59s".
func Short(d time.Duration) string {
	if d.Round(time.Second) >= time.Minute {
		d = d.Round(time.Minute)
	}
	return supervisor.Spoken(d)
}

func taskLevel(s supervisor.TaskState) Level {
	switch s {
	case supervisor.TaskWorking:
		return LevelWorking
	case supervisor.TaskReview:
		return LevelReviewing
	case supervisor.TaskBlocked:
		return LevelBlocked
	}
	return LevelNone
}

func sessionLevel(s supervisor.SessionState) Level {
	switch s {
	case supervisor.SessReviewing:
		return LevelReviewing
	case supervisor.SessIdle, supervisor.SessNudged, supervisor.SessWaiting, supervisor.SessNeedsPermission:
		return LevelAttention
	case supervisor.SessEnded:
		return LevelNone
	}
	return LevelWorking
}

// liveSessions are the sessions the tray menu lists, in a stable order.
func liveSessions(s Snapshot) []supervisor.SessionInfo {
	out := slices.DeleteFunc(slices.Clone(s.Sessions), func(si supervisor.SessionInfo) bool { return si.State == supervisor.SessEnded })
	slices.SortFunc(out, func(a, b supervisor.SessionInfo) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// taskTitle finds a task's title for menus and window titles.
func taskTitle(s Snapshot, taskID string) string {
	for _, t := range s.Tasks {
		if t.ID == taskID {
			return t.Title
		}
	}
	return taskID
}

// missingTask is what a card says of a task the snapshot lacks: while no
// station answers, that the station stopped (and when), never that the
// task is gone from the board.
func missingTask(s Snapshot, taskID string) string {
	switch {
	case s.Connected:
		return "Task " + taskID + " is not on the board"
	case !s.StoppedAt.IsZero():
		return "The station stopped at " + s.StoppedAt.Format("15:04") + "; start it to see task " + taskID
	default:
		return "No station is running; start it to see task " + taskID
	}
}
