package supervisor

import (
	"fmt"
	"time"
)

// SessionState is what the watchdog knows of a live session.
type SessionState int

const (
	SessStarting SessionState = iota
	SessWorking
	SessReviewing
	SessQuiet           // console silent, another layer of evidence says alive
	SessIdle            // no evidence for the idle window
	SessNudged          // typed the nudge, waiting for any sign of life
	SessWaiting         // the agent ended its turn, its hooks say it waits for input
	SessNeedsPermission // a dialog only a person may answer: never typed into, never blocked
	SessEnded
)

var sessionStateNames = [...]string{"starting", "working", "reviewing", "quiet", "idle", "nudged", "waiting", "needs-permission", "ended"}

func (s SessionState) String() string {
	if int(s) < len(sessionStateNames) {
		return sessionStateNames[s]
	}
	return "unknown"
}

// ParseSessionState is String's inverse.
func ParseSessionState(name string) (SessionState, bool) {
	for i, n := range sessionStateNames {
		if n == name {
			return SessionState(i), true
		}
	}
	return 0, false
}

func (s SessionState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *SessionState) UnmarshalText(b []byte) error {
	v, ok := ParseSessionState(string(b))
	if !ok {
		return &unknownStateError{string(b)}
	}
	*s = v
	return nil
}

type unknownStateError struct{ name string }

func (e *unknownStateError) Error() string { return "unknown session state " + e.name }

// SessionInfo is a snapshot of one session. Its JSON field names are part of
// the CLI contract (`session ls --json`).
type SessionInfo struct {
	ID           string       `json:"id"`
	TaskID       string       `json:"task_id"`
	Project      string       `json:"project"`
	Kind         SessionKind  `json:"kind"`
	State        SessionState `json:"state"`
	PID          int          `json:"pid"`
	StartedAt    time.Time    `json:"started_at"`
	LastOutputAt time.Time    `json:"last_output_at"`
	NudgedAt     *time.Time   `json:"nudged_at"`
	// NextAt is when the watchdog acts next, NextAction what it does then
	// ("nudge", "block", "check"); the tray's "nudge in 1m48s".
	NextAt     *time.Time `json:"next_at,omitempty"`
	NextAction string     `json:"next_action,omitempty"`
	// Why says what the last verdict rests on ("quiet: progress 12s ago").
	Why string `json:"why,omitempty"`
	// LastLine, once the session was nudged, is the console's last line
	// before the nudge, as the nudge notice quotes it: the card shows the
	// evidence the notice did.
	LastLine string `json:"last_line,omitempty"`
	// Evidence is when each layer last showed life, by layer name.
	Evidence map[string]time.Time `json:"evidence,omitempty"`
	Dir      string               `json:"dir,omitempty"`
	Branch   string               `json:"branch,omitempty"`
	// Station is the station that runs the session, on a shared board
	// (empty on this station's own board). Its console is on that machine
	// only: another station lists the session but cannot attach to it.
	Station string `json:"station,omitempty"`
	// IdleWindow is the idle window in force for this session: its kind's
	// window (SessionKind.Window) under its project's settings as they are
	// now. Absent for another station's session.
	IdleWindow Duration `json:"idle_window,omitempty"`
	// BlockWindow is the silence after the nudge that blocks this
	// session. Both windows are its project's, each lengthened to a
	// shared board's floor (BoardWindows).
	BlockWindow Duration `json:"block_window,omitempty"`
	// WaitingOn is the request the agent waits on a person for (a
	// permission or a question), answered with `session allow|deny|answer`.
	WaitingOn *WaitingOn `json:"waiting_on,omitempty"`
	// Activity is what the agent does now, from its tool hooks: "running
	// `go test ./...` for 2 min", "editing src/x.go".
	Activity string `json:"activity,omitempty"`
	// Usage is its tokens and cost so far, from its transcript.
	Usage *Usage `json:"usage,omitempty"`
}

// Projected is s with NextAt moved to where the watchdog will really nudge.
// The session's loop re-arms its timer only when the timer fires (a chatty
// agent costs nothing), so while a healthy session prints, its NextAt is the
// next check, not the next nudge: that comes one idle window after the
// latest output. A block, or a nudge in any other state, is not moved by
// output.
func (s SessionInfo) Projected() SessionInfo {
	if s.NextAt == nil || s.NextAction != "nudge" || s.LastOutputAt.IsZero() || s.IdleWindow <= 0 {
		return s
	}
	if s.State != s.Kind.Base() && s.State != SessStarting {
		return s
	}
	if due := s.LastOutputAt.Add(time.Duration(s.IdleWindow)); due.After(*s.NextAt) {
		s.NextAt = &due
	}
	return s
}

// Duration is a time.Duration written as Go writes one ("5m0s"), as the
// project's windows are in ProjectInfo.
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("read a duration: %w", err)
	}
	*d = Duration(v)
	return nil
}

// Status is the station's counts, what `status --json` prints and the tray
// badges from.
type Status struct {
	Tasks    map[TaskState]int `json:"tasks"`
	Sessions map[string]int    `json:"sessions"` // by session state name
	// Working and Reviewing are counted apart: a review is quieter than
	// coding and must not be read as a stall.
	Working   int               `json:"working"`
	Reviewing int               `json:"reviewing"`
	Idle      int               `json:"idle"`
	Blocked   int               `json:"blocked"`
	Paused    map[string]string `json:"paused,omitempty"` // project → reason
	// Activity is what each live session of this station does now, by
	// session id; Usage is theirs together (context_pct: the fullest);
	// SpentToday is what each project's sessions cost today, as this
	// station counted (daily_budget_usd pauses a project past it).
	Activity   map[string]string  `json:"activity,omitempty"`
	Usage      *Usage             `json:"usage,omitempty"`
	SpentToday map[string]float64 `json:"spent_today_usd,omitempty"`
	// Board is a shared board's link: whether it answers, since when it
	// does not, and how many writes wait for it. Absent on a station's
	// own board. While it does not answer, Tasks and the other stations'
	// sessions are not counted.
	Board *BoardLink `json:"board,omitempty"`
	// Warnings are problems with the station's surroundings found at
	// start (Options.Warnings), e.g. "tmux is not on PATH …".
	Warnings []string `json:"warnings,omitempty"`
	// NoGate names the projects without a gate: their tasks reach done on
	// the agent's word alone, and people should know that.
	NoGate []string `json:"no_gate,omitempty"`
	// Sources are the issue trackers tasks are imported from, each with
	// its problem in one sentence while it has one.
	Sources []SourceState `json:"sources,omitempty"`
	// Phone is how the [phone] table's service stands: while it does not
	// take notices, status and the tray say so in one line (Away). Absent
	// without a [phone] table.
	Phone *PhoneLink `json:"phone,omitempty"`
}

// ProjectInfo is a project with its effective settings.
type ProjectInfo struct {
	Name             string `json:"name"`
	Path             string `json:"path"`
	Agent            string `json:"agent"`
	IdleWindow       string `json:"idle_window"`
	BlockWindow      string `json:"block_window"`
	ReviewIdleWindow string `json:"review_idle_window"`
	Concurrency      int    `json:"concurrency"`
	Review           bool   `json:"review"`
	Gate             string `json:"gate,omitempty"`
	Paused           bool   `json:"paused"`
	PauseReason      string `json:"pause_reason,omitempty"`
	Running          int    `json:"running"`
	Queued           int    `json:"queued"`
	// Settings are every key `project set` takes, with this project's
	// value and the default: what Edit project offers.
	Settings []ProjectSetting `json:"settings,omitempty"`
}

// ProjectSetting is one project key: the value the project's table writes
// ("" when it leaves it to the default) and the value that applies then,
// both as `project set` takes them; Type is the declared type ("duration",
// "boolean", "array of strings" …).
type ProjectSetting struct {
	Key     string `json:"key"`
	Type    string `json:"type,omitempty"`
	Value   string `json:"value,omitempty"`
	Default string `json:"default,omitempty"`
}

// SourceState is one [[sources]] entry's state, as status, `source ls`
// and the tray show it.
type SourceState struct {
	Name    string `json:"name"` // "github acme/web", "linear ENG"
	Kind    string `json:"kind"`
	Project string `json:"project"`
	OK      bool   `json:"ok"`
	// Problem is what went wrong last, one sentence a person can act on;
	// "" while the source answers.
	Problem string    `json:"problem,omitempty"`
	Checked time.Time `json:"checked,omitzero"` // the last poll that went through
	Retry   time.Time `json:"retry,omitzero"`   // after a failure: no request before this
	Tasks   int       `json:"tasks"`            // tasks imported from it on this board
	Owed    int       `json:"owed"`             // write-backs waiting in the outbox
	// Note is how the source differs from what the station writes
	// elsewhere, said once ("team ENG has no workflow state Blocked: a
	// blocked task's issue gets the label blocked instead").
	Note string `json:"note,omitempty"`
}

// SessionGroup is how a live session is counted where states are summed
// up (status, the tray's menu and dashboard): the one grouping of states.
type SessionGroup int

const (
	GroupNone       SessionGroup = iota // ended: not counted
	GroupWorking                        // starting, working, quiet
	GroupReviewing                      // reviewing
	GroupIdle                           // idle, nudged, waiting
	GroupPermission                     // needs a person's answer
)

// Group is the group s is counted in.
func (s SessionState) Group() SessionGroup {
	switch s {
	case SessWorking, SessStarting, SessQuiet:
		return GroupWorking
	case SessReviewing:
		return GroupReviewing
	case SessIdle, SessNudged, SessWaiting:
		return GroupIdle
	case SessNeedsPermission:
		return GroupPermission
	}
	return GroupNone
}
