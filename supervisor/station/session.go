package station

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strings"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/supervisor/agent"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Timing of typed input. A TUI takes one fast burst of "text\r" as a paste and
// does not submit it, so Enter goes as its own write a little later.
const (
	enterDelay = 400 * time.Millisecond
	// echoGrace is how long after our Enter any output is taken for the
	// terminal's reaction to our keys rather than for life: a TUI redraws
	// its input box (our text framed by its own chrome) the moment it reads
	// them, even a TUI whose agent then does nothing. Echo that comes later
	// (a loaded machine) is recognised by its content (echoFilter).
	echoGrace = 500 * time.Millisecond
	// stopGrace is how long an agent gets to exit after the polite signal.
	stopGrace = 3 * time.Second
	// probeTimeout bounds one round of pull evidence (git, /proc).
	probeTimeout = 10 * time.Second
	// promptWait is how long a typed prompt waits for the agent to list the
	// station's MCP tools (Claude Code took 11–21 s) before it is typed
	// anyway: an agent without the tools can still work and report by
	// `buildstation agent`, one with no prompt cannot.
	promptWait = 90 * time.Second
	// promptSettle is how long after the tools were listed the prompt is
	// typed: the answer to tools/list is still on its way to the agent.
	promptSettle = 300 * time.Millisecond
	// promptRetry is how often a prompt held back by a dialog on screen
	// looks again.
	promptRetry = 5 * time.Second
)

// sessionSpec is everything a session needs to run, set before its goroutine
// starts. Its identity (ids, kind, token, task, folder) stays; the windows,
// the nudge and cpu_alive follow the project's settings when they change
// (cmdSettings), and only the session's goroutine changes them.
type sessionSpec struct {
	ID, TaskID, Project string
	Attempt             int // the task's run this session is
	Kind                supervisor.SessionKind
	Token               string
	Title               string
	Dir                 string
	IdleWindow          time.Duration
	BlockWindow         time.Duration
	Nudge               string // empty: never nudge, go idle then block
	CPUAlive            float64
	Branch, Base        string // the task's worktree branch and its start, when git
	Summary             string // for a review: what the coding session said it did
	Profile             string // the agent's profile: which way it reports ({complete} in the nudge)
	// Prompt is typed into the session as its first message ("" for an
	// agent that got its prompt otherwise); with PromptAfterMCP it waits
	// until the agent has listed the station's MCP tools.
	Prompt         string
	PromptAfterMCP bool
}

// outcome is how a session ended, for the station to settle its task.
type outcome struct {
	kind     outcomeKind
	code     int    // exit code for outExited
	exitErr  string // for outExited without a code: what ended it ("agent killed by signal: killed")
	reason   string // block reason for outBlocked
	lastLine string
}

type outcomeKind int

const (
	outExited   outcomeKind = iota // the agent exited on its own
	outBlocked                     // the watchdog or a person blocked it (task already moved)
	outEnded                       // the station ended it (completed, cancelled, requeued)
	outStopped                     // the station is shutting down
	outDetached                    // the station is shutting down; the session lives on (tmux)
	outFenced                      // the station could not prove the task's lease (self-fencing)
)

var outcomeKindNames = [...]string{"exited", "blocked", "ended", "stopped", "detached", "fenced"}

// String names how a session ended, as the log says it ("how").
func (k outcomeKind) String() string {
	if int(k) < len(outcomeKindNames) {
		return outcomeKindNames[k]
	}
	return "unknown"
}

// command is a message to a session's goroutine.
type command struct {
	kind     cmdKind
	text     string
	input    wdInput
	layer    string
	reply    chan error
	result   outcomeKind
	settings config.Settings
	ask      *ask // the request a cmdReport of inPermission shows
}

type cmdKind int

const (
	cmdSend     cmdKind = iota // type text, then Enter
	cmdNudge                   // nudge now (a person asked)
	cmdBlock                   // block now with text as the reason (a person asked)
	cmdReport                  // a report on the board or a hook: input, layer, text
	cmdEnd                     // end the session; the task was settled elsewhere
	cmdSettings                // the project's settings changed: new windows apply now
	cmdMCPReady                // the agent listed the station's MCP tools
	cmdKeys                    // a person's keys from a console: text, raw
)

var sessionSeq atomic.Int64

// session runs one agent process. Its goroutine (run) owns every field below
// the line; other goroutines talk to it through cmds and read snapshots.
type session struct {
	spec sessionSpec
	host sessionHost // the station that runs it, as far as a session may reach
	proc supervisor.Proc
	con  *console
	keys *typist // the one writer into the terminal
	log  *slog.Logger
	seq  int64 // start order, for listing
	// backend names the Spawner that started it ("pty", "tmux").
	backend string
	// resumeFrom, for a session re-adopted after a restart, is its last
	// output: the watchdog's window runs from then, not from the restart.
	resumeFrom time.Time
	// closeTranscript closes the transcript file once the session is settled.
	closeTranscript func() error

	cmds       chan command
	activity   chan struct{} // output arrived while the loop asked to hear of it
	wantOutput atomic.Bool   // the loop is not in its base state: tell it about output
	readerDone chan struct{}
	info       atomic.Pointer[supervisor.SessionInfo]
	done       chan struct{} // closed when run returns
	// meter is what the hooks say beyond life: a request waiting on a
	// person, the current activity, the usage so far.
	meter meter

	// ---- owned by run ----
	wd        wdState
	startedAt time.Time
	armedAt   time.Time // start of the current window
	armedWall time.Time // the wall clock then, to notice a laptop sleep
	nudgedAt  time.Time
	echoUntil time.Time
	// promptC fires when the first prompt is to be typed; promptDue is
	// true until it was.
	promptC   <-chan time.Time
	promptDue bool
	mcpReady  bool
	evidence  map[string]time.Time
	why       string
	timer     *time.Timer
	// blockedWith is the reason the task was blocked from this session.
	blockedWith string
	// silentSince and lineAtNudge are the console as it was before the
	// nudge: the echo of our own typing must not stand in for the agent's
	// last words in a block reason.
	silentSince time.Time
	lineAtNudge string
	// screenDialog is set when needs-permission came from reading the
	// screen rather than a hook, so the screen may also lift it.
	screenDialog bool
	// noticed is what the last needs-permission notice announced: the id
	// of the request it carried, or "" for a dialog in the console. The
	// agent's Notification hook says again that the request it just asked
	// waits: a person is told once per request (reminders aside).
	noticed   string
	noticedOn bool
	// publishedAsk is the request id the last session event carried.
	publishedAsk string
}

func newSession(host sessionHost, log *slog.Logger, spec sessionSpec, proc supervisor.Proc, con *console, base supervisor.SessionState) *session {
	log = log.With("session", spec.ID, "task", spec.TaskID)
	s := &session{
		spec: spec, host: host, proc: proc, con: con,
		keys:       newTypist(proc, &con.echo, log),
		log:        log,
		cmds:       make(chan command, 16),
		activity:   make(chan struct{}, 1),
		readerDone: make(chan struct{}),
		done:       make(chan struct{}),
		wd:         wdState{State: supervisor.SessStarting, Base: base, CanNudge: spec.Nudge != ""},
		evidence:   map[string]time.Time{},
	}
	s.wantOutput.Store(true)
	s.seq = sessionSeq.Add(1)
	return s
}

// readLoop copies the PTY's output into the console. It never waits on
// anyone: a blocked reader would make a healthy agent look idle.
func (s *session) readLoop() {
	defer close(s.readerDone)
	buf := make([]byte, 64<<10)
	for {
		n, err := s.proc.Read(buf)
		if n > 0 {
			s.con.write(buf[:n], time.Now())
			if s.wantOutput.Load() {
				select {
				case s.activity <- struct{}{}:
				default:
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.log.Debug("pty read ended", "err", err)
			}
			return
		}
	}
}

// procExit is how the agent's process ended.
type procExit struct {
	code int
	err  error
}

// run is the session's goroutine. It returns how the session ended, after
// the agent's whole process tree is gone.
func (s *session) run(ctx context.Context) outcome {
	defer close(s.done)
	exited := s.waitExit()
	s.begin()
	defer s.timer.Stop()

	for {
		select {
		case <-ctx.Done():
			return s.onCancel()
		case <-s.activity:
			// Fresh news: output at the very instant of a re-arm counts too.
			if lo := s.liveOutput(); !lo.IsZero() && !lo.Before(s.armedAt) && s.outputCounts() {
				s.apply(inOutput, time.Now())
			}
		case <-s.timer.C:
			s.onDeadline(ctx)
		case <-s.promptC:
			s.typePrompt(time.Now())
		case c := <-s.cmds:
			if o, end := s.handle(ctx, c); end {
				return o
			}
		case x := <-exited:
			return s.onExit(x)
		}
		if s.wd.State == supervisor.SessEnded {
			// Blocked: the task is already settled; now end the tree.
			s.publish()
			s.stop()
			return outcome{kind: outBlocked, reason: s.blockedWith, lastLine: lastLine(s.con.snapshot())}
		}
		s.rearm()
	}
}

// waitExit waits for the agent's process in a goroutine of its own, so the
// loop hears of its end as one more message.
func (s *session) waitExit() <-chan procExit {
	exited := make(chan procExit, 1)
	go func() {
		code, err := s.proc.Wait()
		if err != nil && code == 0 {
			code = -1
		}
		exited <- procExit{code, err}
	}()
	return exited
}

// begin arms the first window, starts the reader and the typist, and
// schedules the first prompt: everything run does once before its loop.
func (s *session) begin() {
	// Arm before the first read: output read earlier would be older than
	// the window and never count, leaving an agent that printed at once
	// "starting" until it is nudged.
	now := time.Now()
	s.startedAt, s.armedAt, s.armedWall = now, now, s.host.wall()
	if !s.resumeFrom.IsZero() && s.resumeFrom.Before(now) {
		s.armedAt = s.resumeFrom
		s.armedWall = s.host.wall().Add(s.resumeFrom.Sub(now))
		s.wd.State = s.wd.Base
	}
	go s.readLoop()
	go s.keys.run(s.done)
	s.host.observe(s.target())
	s.timer = time.NewTimer(max(0, time.Until(s.deadline())))
	if s.spec.Prompt != "" && s.resumeFrom.IsZero() {
		s.promptDue = true
		wait := time.Duration(0)
		if s.spec.PromptAfterMCP {
			wait = promptWait
		}
		s.promptC = time.After(wait)
	}
	s.publish()
}

// onCancel ends the session as the station stops: a tmux agent is left
// working for the next station to adopt, any other is stopped.
func (s *session) onCancel() outcome {
	if _, survives := s.proc.(supervisor.Handled); survives {
		// Its backend (tmux) outlives the station: leave the agent
		// working; the next station adopts it again.
		s.detach()
		return outcome{kind: outDetached}
	}
	s.stop()
	return outcome{kind: outStopped, lastLine: lastLine(s.con.snapshot())}
}

// onExit ends the session whose agent exited by itself.
func (s *session) onExit(x procExit) outcome {
	// Let the reader drain the agent's last words for the reason.
	select {
	case <-s.readerDone:
	case <-time.After(500 * time.Millisecond):
	}
	s.wd.State = supervisor.SessEnded
	s.publish()
	s.stop() // children the agent left behind
	o := outcome{kind: outExited, code: x.code, lastLine: lastLine(s.con.snapshot())}
	if x.err != nil && x.code < 0 {
		o.exitErr = x.err.Error() // a signal, not a code: say which
	}
	return o
}

// sleepGrace is how far the wall clock may run ahead of the monotonic one,
// or a timer fire late, before the watchdog takes it for a sleep.
const sleepGrace = 30 * time.Second

// arm starts a new window now.
func (s *session) arm(now time.Time) {
	s.armedAt, s.armedWall = now, s.host.wall()
}

// clockJump reports a sleep or clock change since the window was armed: the
// wall clock ran ahead of the monotonic one (Linux and macOS do not count a
// suspend on the monotonic clock), or the timer fired far later than asked
// (where the monotonic clock does count it).
func (s *session) clockJump(now time.Time) time.Duration {
	mono := now.Sub(s.armedAt)
	wall := s.host.wall().Sub(s.armedWall)
	if d := wall - mono; d > sleepGrace || d < -sleepGrace {
		return d
	}
	if late := now.Sub(s.deadline()); late > sleepGrace {
		return late
	}
	return 0
}

// outputCounts says whether console output is evidence in the current
// state: not while hooks said the agent waits, nor at a dialog.
func (s *session) outputCounts() bool {
	return s.wd.State != supervisor.SessWaiting && s.wd.State != supervisor.SessNeedsPermission
}

// window is the length of the current stage.
func (s *session) window() time.Duration {
	if s.wd.State == supervisor.SessNudged || s.wd.State == supervisor.SessIdle {
		return s.spec.BlockWindow
	}
	return s.spec.IdleWindow
}

func (s *session) deadline() time.Time { return s.armedAt.Add(s.window()) }

// rearm points the timer at the current deadline.
func (s *session) rearm() {
	if s.wd.State == supervisor.SessEnded {
		return
	}
	d := time.Until(s.deadline())
	if d < 0 {
		d = 0
	}
	s.timer.Reset(d)
	s.publish()
}

// expectEcho notes that the station types into the session now: what
// the terminal prints until its Enter's echo is due is not the agent's.
func (s *session) expectEcho(now time.Time) {
	s.echoUntil = now.Add(enterDelay + echoGrace)
	s.con.typing(s.echoUntil)
}

// liveOutput is the time of the last output that counts as life: the echo
// of our own typing does not, whenever it arrives (see echoFilter).
func (s *session) liveOutput() time.Time {
	t := s.con.lastLiveAt()
	if t.Before(s.echoUntil) {
		return time.Time{}
	}
	return t
}

// onDeadline runs when a window ran out without output reaching the loop.
func (s *session) onDeadline(ctx context.Context) {
	now := time.Now()
	if now.Before(s.deadline()) {
		return // stale wake-up; rearm follows
	}
	if _, dialog := dialogOnScreen(s.con.snapshot()); s.promptDue && !dialog {
		// Silence before the agent has its task is not a wedge: the
		// window starts when the prompt is typed. A dialog that holds the
		// agent up (folder trust) is surfaced below, as at any time.
		s.arm(now)
		return
	}
	if jump := s.clockJump(now); jump != 0 {
		// The machine slept: the agent was frozen too, and every session's
		// window ran out at once. Silence over a sleep is not a wedge; give
		// each session a fresh window instead of nudging them all.
		s.log.Warn("clock jumped (sleep or clock change); re-arming the window", "jump", jump.Round(time.Second))
		s.arm(now)
		return
	}
	// Output in a base state does not wake the loop (it costs nothing while
	// an agent is chatty), so look before concluding silence. Where output
	// is no evidence (waiting on hooks, a dialog), it must not be looked at:
	// it would not re-arm, and the timer would fire again at once.
	if lo := s.liveOutput(); lo.After(s.armedAt) && s.outputCounts() {
		s.evidence["console"] = lo
		s.apply(inOutput, lo)
		return
	}
	if s.probedLife(ctx, now) {
		return
	}
	d, onScreen := dialogOnScreen(s.con.snapshot())
	if onScreen && s.wd.State != supervisor.SessNeedsPermission {
		// Silent at a dialog only a person may answer: surface it, never
		// type into it.
		s.screenDialog = true
		s.why = "needs permission: the screen shows " + strconvQuote(d)
		s.apply(inPermission, now)
		return
	}
	if !onScreen && s.screenDialog && s.wd.State == supervisor.SessNeedsPermission {
		// Someone answered it in the console (an agent without hooks says
		// so no other way): judge the session afresh from now.
		s.screenDialog = false
		s.apply(inReport, now)
		return
	}
	s.apply(inDeadlineDead, now)
}

// probedLife asks every pull layer (git, files, CPU: the Probers) for a
// sign of life since the window began; on one, the session is quiet, not
// wedged, and probedLife has told the watchdog so.
func (s *session) probedLife(ctx context.Context, now time.Time) bool {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	lives := s.host.probe(pctx, s.target(), s.armedAt)
	cancel()
	if len(lives) == 0 {
		return false
	}
	var why []string
	for _, l := range lives {
		s.evidence[l.Layer] = l.At
		why = append(why, l.Detail)
	}
	s.why = "quiet: " + strings.Join(why, "; ")
	s.apply(inDeadlineLive, now)
	return true
}

func (s *session) target() supervisor.ProbeTarget {
	t := supervisor.ProbeTarget{SessionID: s.spec.ID, TaskID: s.spec.TaskID, PID: s.proc.Pid(), Dir: s.spec.Dir, CPUAlive: s.spec.CPUAlive}
	if a, ok := s.proc.(supervisor.TreeAccounter); ok {
		t.TreeCPU = a.JobCPU
	}
	return t
}

// apply runs the watchdog's transition and carries out its effects.
func (s *session) apply(in wdInput, now time.Time) {
	from := s.wd.State
	var effs []wdEffect
	s.wd, effs = next(s.wd, in)
	if s.wd.State != from {
		s.log.Info("session state", "from", from, "to", s.wd.State, "on", in)
		if s.wd.State == s.wd.Base {
			s.why = ""
		}
	}
	if s.wd.State != supervisor.SessNeedsPermission {
		s.noticedOn = false
	}
	// In its base state the loop needs no word of output; anywhere else,
	// output is news (it ends quiet, idle or nudged).
	s.wantOutput.Store(s.wd.State != s.wd.Base && s.outputCounts())
	for _, e := range effs {
		switch e {
		case effArm, effArmBlock:
			s.arm(now)
		case effNudge:
			s.nudge(now)
		case effNotifyNudge:
			s.host.notify(supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: s.spec.TaskID, SessionID: s.spec.ID,
				Title: "Nudged: " + s.spec.Title,
				Body:  s.nudgeNotice(now)})
		case effNotifyPermission:
			n := s.permissionNotice()
			key := ""
			if n.Ask != nil {
				key = n.Ask.ID
			}
			if in == inPermission && from == supervisor.SessNeedsPermission && s.noticedOn && s.noticed == key {
				continue // told already; deadlines remind
			}
			s.noticed, s.noticedOn = key, true
			// The card's event goes first: what the notice offers, the
			// card offers by the time a person looks.
			s.publish()
			s.host.notify(n)
		case effBlock:
			s.onBlock(now)
		}
	}
	s.publish()
}

// nudge types the nudge text, and schedules Enter as a separate write.
func (s *session) nudge(now time.Time) {
	s.nudgedAt = now
	s.silentSince, s.lineAtNudge = s.con.lastOutputAt(), lastLine(s.con.snapshot())
	// Logged at the nudge's own time, before the work below: the block
	// is due a window after now, and a line written later would make an
	// on-time block look early.
	if s.silentSince.IsZero() {
		s.log.Info("nudged", "silent_since", "no output yet")
	} else {
		s.log.Info("nudged", "silent_since", s.silentSince)
	}
	text := agent.Nudge(agent.NudgeFacts{Text: s.spec.Nudge, Title: s.spec.Title, Kind: s.spec.Kind, Profile: s.spec.Profile, IdleWindow: s.spec.IdleWindow},
		s.host.layers(), s.con.lastLiveAt(), now, s.evidence) + s.host.gateNote(s.spec)
	s.typeText(text, now, nil)
	s.host.judgeHead(s.spec)
}

// typePrompt types the session's first prompt, once, and starts its
// window: the agent's work begins now.
func (s *session) typePrompt(now time.Time) {
	s.promptC = nil
	if !s.promptDue {
		return
	}
	if d, ok := dialogOnScreen(s.con.snapshot()); ok {
		// The prompt's Enter would answer it ("No, exit" at folder trust):
		// wait for a person to, as the watchdog asks them to.
		s.log.Info("a dialog holds the prompt back", "dialog", d)
		s.promptC = time.After(promptRetry)
		return
	}
	s.promptDue = false
	if s.spec.PromptAfterMCP && !s.mcpReady {
		s.log.Warn("the agent did not list the station's MCP tools in time; typing its prompt anyway", "waited", promptWait)
	}
	s.log.Info("typing the prompt", "bytes", len(s.spec.Prompt))
	// Its Enter follows the text once the agent has read it all: a long
	// prompt takes a while to read.
	s.expectEcho(now)
	s.keys.add(keys{text: s.spec.Prompt, enter: enterDelay})
	s.arm(now)
}

// typeText types text, then Enter enterDelay after it; false when the
// terminal's backlog is full. The text is one line with no control
// characters: a carriage return in a task title or a program's request
// would submit a line of its own (and in Claude Code a line starting with
// "!" runs a shell command); the only Enter is ours.
func (s *session) typeText(text string, now time.Time, written chan<- error) bool {
	s.expectEcho(now)
	return s.keys.add(keys{text: textsafe.Typed(text), echo: true, enter: enterDelay, written: written})
}

// typeCommand queues what a send (typed as the station types) or a
// console (a person's keys, as they are) asks to type; the typist answers
// c once the text is written.
func (s *session) typeCommand(c command, now time.Time) error {
	if s.wd.State == supervisor.SessEnded {
		return supervisor.Conflictf("session %s has ended", s.spec.ID)
	}
	queued := false
	if c.kind == cmdSend {
		queued = s.typeText(c.text, now, c.reply)
	} else {
		queued = s.keys.add(keys{text: c.text, written: c.reply})
	}
	if !queued {
		return s.notReading()
	}
	return nil
}

// notReading is the answer to typing into a session whose terminal takes
// nothing more.
func (s *session) notReading() error {
	return supervisor.Conflictf("session %s does not read its input (what was typed before is still waiting); it may be wedged: look at its console, or block it", s.spec.ID)
}

// blockReason says why the watchdog gave up, naming the heuristic, the
// windows and what every layer showed, so a person can judge it.
func (s *session) blockReason(now time.Time) string {
	lo, line := s.con.lastOutputAt(), lastLine(s.con.snapshot())
	if !s.nudgedAt.IsZero() {
		lo, line = s.silentSince, s.lineAtNudge
	}
	last := "never"
	if !lo.IsZero() {
		last = lo.Format(time.TimeOnly) + " (" + spoken(now.Sub(lo)) + " ago)"
	}
	var b strings.Builder
	if s.wd.CanNudge {
		fmt.Fprintf(&b, "watchdog: no output for %s, nudged, then %s more with no sign of life", spoken(s.spec.IdleWindow), spoken(s.spec.BlockWindow))
	} else {
		fmt.Fprintf(&b, "watchdog: no output for %s, then %s more with no sign of life (nudging is off for this project)", spoken(s.spec.IdleWindow), spoken(s.spec.BlockWindow))
	}
	fmt.Fprintf(&b, "; console: last output %s", last)
	if line != "" {
		fmt.Fprintf(&b, ", last line %q", line)
	}
	for _, layer := range s.host.layers() {
		if t, ok := s.evidence[layer]; ok {
			fmt.Fprintf(&b, "; %s: last life %s", layer, t.Format(time.TimeOnly))
		} else {
			fmt.Fprintf(&b, "; %s: nothing", layer)
		}
	}
	b.WriteString(s.host.gateReason(s.spec))
	return b.String()
}

// onBlock settles the task as blocked before ending the tree, so the reason
// is on the board even if the kill takes long.
func (s *session) onBlock(now time.Time) {
	reason := s.blockReason(now)
	s.host.blockFromSession(s.spec, reason, s.blockNotice(now), "watchdog")
	s.blockedWith = reason
}

// handle runs a command; end is true when the session is over.
func (s *session) handle(ctx context.Context, c command) (o outcome, end bool) {
	now := time.Now()
	var err error
	switch c.kind {
	case cmdSend, cmdKeys:
		if err = s.typeCommand(c, now); err == nil {
			return outcome{}, false // the typist answers once the text is written
		}
	case cmdNudge:
		if s.wd.State == supervisor.SessNeedsPermission {
			err = supervisor.Conflictf("session %s waits on a permission dialog and an Enter would approve it; open its console and answer it yourself", s.spec.ID)
			break
		}
		s.apply(inNudgeNow, now)
	case cmdBlock:
		s.blockByPerson(c.text)
	case cmdReport:
		s.report(c, now)
	case cmdSettings:
		s.applySettings(c.settings)
	case cmdMCPReady:
		s.onMCPReady()
	case cmdEnd:
		return s.end(c), true
	}
	if c.reply != nil {
		c.reply <- err
	}
	return outcome{}, false
}

// blockByPerson settles the task as blocked with a person's reason; run
// ends the tree once it sees the session ended.
func (s *session) blockByPerson(reason string) {
	if reason == "" {
		reason = "blocked by a person"
	}
	s.host.blockFromSession(s.spec, reason, "", "person")
	s.blockedWith = reason
	s.wd.State = supervisor.SessEnded
}

// report takes a report from the board or a hook as evidence of life and
// feeds its input to the watchdog.
func (s *session) report(c command, now time.Time) {
	s.evidence[c.layer] = now
	if c.text != "" {
		s.why = c.text
	}
	if c.ask != nil {
		// Shown in the step that turns the session needs-permission: the
		// request and the state reach every reader together.
		s.meter.show(c.ask)
	}
	s.apply(c.input, now)
	if c.input == inWaiting || strings.HasPrefix(c.text, progressPrefix) {
		// The agent ended its turn or reported progress: a moment it
		// has likely just committed (not every tool call: too often).
		// Pushed in the background.
		s.host.checkpoint(s.spec)
	}
}

// applySettings takes the project's new windows, nudge and CPU rule; a
// changed window moves the current deadline at once.
func (s *session) applySettings(set config.Settings) {
	was := s.window()
	s.spec.IdleWindow, s.spec.BlockWindow = s.spec.Kind.Window(set.IdleWindow, set.ReviewIdleWindow), set.BlockWindow
	s.spec.Nudge, s.spec.CPUAlive = set.Nudge, set.CPUAlive
	s.wd.CanNudge = set.Nudge != ""
	if s.window() != was {
		s.rearm() // the deadline moved with the window; next_at says so
	} else {
		s.publish() // the session's info names its windows
	}
}

// onMCPReady notes that the agent listed the station's MCP tools: a prompt
// held back for them goes out after a short settle.
func (s *session) onMCPReady() {
	if !s.mcpReady {
		s.mcpReady = true
		if s.promptDue && s.spec.PromptAfterMCP {
			s.promptC = time.After(promptSettle)
		}
	}
}

// end stops a session whose task was settled elsewhere and answers c once
// the tree is gone.
func (s *session) end(c command) outcome {
	s.wd.State = supervisor.SessEnded
	s.publish()
	if c.result == outFenced {
		// The lease runs out soon: no time for a polite end.
		s.stopWithin(fenceStopGrace)
	} else {
		s.stop()
	}
	c.reply <- nil
	return outcome{kind: c.result, lastLine: lastLine(s.con.snapshot())}
}

// fenceStopGrace is how long a fenced session's agent has between SIGTERM
// and SIGKILL: its lease is about to run out.
const fenceStopGrace = supervisor.GuardGrace

// stop ends the whole process tree and releases the terminal.
func (s *session) stop() { s.stopWithin(stopGrace) }

// stopWithin is stop with the given time between asking and killing.
func (s *session) stopWithin(grace time.Duration) {
	if err := s.proc.Stop(grace); err != nil {
		s.log.Warn("end process tree", "err", err)
	}
	select {
	case <-s.readerDone:
	case <-time.After(time.Second):
	}
	if err := s.proc.Close(); err != nil {
		s.log.Debug("close pty", "err", err)
	}
	s.con.close()
}

// detach lets go of a session that outlives the station, without ending it.
func (s *session) detach() {
	if err := s.proc.Close(); err != nil {
		s.log.Debug("detach", "err", err)
	}
	select {
	case <-s.readerDone:
	case <-time.After(time.Second):
	}
	s.con.close()
}

// send delivers a command and waits for its answer, unless the session ends.
func (s *session) send(ctx context.Context, c command) error {
	return s.sendWithin(ctx, c, nil)
}

// sendWithin is send that waits for the answer only until patience fires
// (nil: no limit), then takes the delivered command as done.
func (s *session) sendWithin(ctx context.Context, c command, patience <-chan time.Time) error {
	c.reply = make(chan error, 1)
	select {
	case s.cmds <- c:
	case <-s.done:
		return supervisor.Conflictf("session %s has ended", s.spec.ID)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-c.reply:
		return err
	case <-s.done:
		return nil
	case <-patience:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// publish stores a snapshot for readers and tells subscribers.
func (s *session) publish() {
	info := s.snapshot()
	old := s.info.Swap(&info)
	if old == nil || old.State != info.State || old.Why != info.Why || !timePtrEq(old.NudgedAt, info.NudgedAt) || s.publishedAsk != s.meter.askID() {
		// The event carries what the API's session list does (the
		// request waiting, the activity, the usage): a card fed by events
		// shows Allow once the moment the notice does, not after a re-read.
		full := s.Info()
		s.publishedAsk = askID(&full)
		s.host.publishSession(full)
	}
	// The board has "starting" from register; an adopted session may begin
	// in another state.
	if old == nil && info.State != supervisor.SessStarting || old != nil && old.State != info.State {
		s.host.recordState(s.spec.ID, info.State)
	}
}

// askID is the id of the request info waits on, "" for none.
func askID(info *supervisor.SessionInfo) string {
	if info.WaitingOn == nil {
		return ""
	}
	return info.WaitingOn.ID
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

func timePtrEq(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

func (s *session) snapshot() supervisor.SessionInfo {
	info := supervisor.SessionInfo{
		ID: s.spec.ID, TaskID: s.spec.TaskID, Project: s.spec.Project, Kind: s.spec.Kind,
		State: s.wd.State, PID: s.proc.Pid(), StartedAt: s.startedAt, Why: s.why, Dir: s.spec.Dir,
		Evidence: maps.Clone(s.evidence), Branch: s.spec.Branch, Station: s.host.stationName(),
		IdleWindow: supervisor.Duration(s.spec.IdleWindow), BlockWindow: supervisor.Duration(s.spec.BlockWindow),
	}
	if !s.nudgedAt.IsZero() {
		t := s.nudgedAt
		info.NudgedAt = &t
		info.LastLine = quotedLine(s.lineAtNudge)
	}
	if s.wd.State != supervisor.SessEnded {
		t := s.deadline()
		info.NextAt = &t
		switch s.wd.State {
		case supervisor.SessNudged, supervisor.SessIdle:
			info.NextAction = "block"
		case supervisor.SessNeedsPermission:
			info.NextAction = "remind"
		default:
			if s.wd.CanNudge {
				info.NextAction = "nudge"
			} else {
				info.NextAction = "idle"
			}
		}
	}
	return info
}

// Info returns the latest snapshot, with the live last-output time.
func (s *session) Info() supervisor.SessionInfo {
	p := s.info.Load()
	if p == nil {
		return supervisor.SessionInfo{ID: s.spec.ID, TaskID: s.spec.TaskID, State: supervisor.SessStarting, Station: s.host.stationName()}
	}
	info := *p
	info.LastOutputAt = s.con.lastOutputAt()
	// What a person wants is when the nudge would really come.
	info = info.Projected()
	if !info.LastOutputAt.IsZero() {
		if info.Evidence == nil {
			info.Evidence = map[string]time.Time{}
		} else {
			info.Evidence = maps.Clone(info.Evidence)
		}
		info.Evidence["console"] = info.LastOutputAt
	}
	s.meter.fill(&info, time.Now())
	return info
}
