//go:build linux

package fault

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// ack is a transition the station acknowledged: a CLI call that returned
// 0, with what its output said.
type ack struct {
	kind    string // add, cancel, requeue, done (the agent's complete)
	id      string
	attempt int
}

type ackLog struct {
	mu   sync.Mutex
	acks []ack
}

func (l *ackLog) add(a ack) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks = append(l.acks, a)
}

func (l *ackLog) snapshot() []ack {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ack(nil), l.acks...)
}

const (
	crashMaxSessions = 3
	crashConcurrency = 2
)

var requeuedRE = regexp.MustCompile(`^(t\d+) requeued \(attempt (\d+)\)`)

// TestKill9AtRandomPoints kills the station with SIGKILL at random moments
// while the CLI adds, cancels and requeues tasks and agents complete them,
// until 500 transitions have happened (or its time box ends). After each restart: no acknowledged
// transition is lost, every task's state is its history's last `to` (one
// state, a consistent chain), and no project slot is held without a live
// session.
func TestKill9AtRandomPoints(t *testing.T) {
	acksFile := filepath.Join(t.TempDir(), "agent-acks")
	// The agent ignores the polite signals so that, once its complete
	// call returned 0, it gets to record the acknowledgement; a kill -9 of
	// the station fails the call instead.
	agent := func(pre string) string {
		return fmt.Sprintf(`trap '' TERM HUP INT; %sbuildstation agent complete --summary ok && echo "$BUILDSTATION_SESSION_ID" >> %s`, pre, acksFile)
	}
	home := rig.WriteConfig(t, fmt.Sprintf(`max_sessions = %d
[[projects]]
name = "a"
path = %q
command = ["sh", "-c", %q]
concurrency = %d
idle_window = "1m"
block_window = "1m"

[[projects]]
name = "b"
path = %q
command = ["sh", "-c", %q]
concurrency = %d
idle_window = "1m"
block_window = "1m"
`, crashMaxSessions, t.TempDir(), agent(""), crashConcurrency, t.TempDir(), agent("sleep 0.3; "), crashConcurrency))
	s := rig.StartOn(t, home)

	var log ackLog
	stop := make(chan struct{})
	var drivers sync.WaitGroup
	for w := range 2 {
		drivers.Go(func() { drive(home, w, &log, stop) })
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		drivers.Wait()
	}()

	start := time.Now()
	rounds, transitions := 0, 0
	// The box is what the suite can afford, not a speed to meet: a quiet
	// machine reaches 500 transitions in about 75 s, a loaded one (the
	// whole suite on two cores) takes longer and may.
	for time.Since(start) < 3*time.Minute && (transitions < 500 || rounds < 15) {
		time.Sleep(time.Duration(200+rand.IntN(1300)) * time.Millisecond)
		s.Kill9()
		rounds++
		s = rig.StartOn(t, home)
		transitions = checkBoard(t, s, log.snapshot(), readAgentAcks(t, acksFile))
		if t.Failed() {
			t.Fatalf("after kill %d (%d transitions so far); station output:\n%s", rounds, transitions, rig.Tail(s.Log.String(), 3000))
		}
	}
	close(stop)
	drivers.Wait()
	s.Kill9()
	rounds++
	s = rig.StartOn(t, home)
	transitions = checkBoard(t, s, log.snapshot(), readAgentAcks(t, acksFile))
	kinds := map[string]int{}
	for _, a := range log.snapshot() {
		kinds[a.kind]++
	}
	t.Logf("%d kills, %d transitions on the board, acknowledged: %v and %d agent completions, in %s",
		rounds, transitions, kinds, len(readAgentAcks(t, acksFile)), time.Since(start).Round(time.Second))
	// 500 is the aim; under the whole suite's load on two cores the box
	// ends first (about 300–480 seen), which still crosses every kind of
	// transition with a kill many times. Too few proves too little.
	if transitions < 250 || rounds < 15 {
		t.Errorf("only %d transitions and %d kills in the time box, want at least 250 and 15 (500 on a quiet machine)", transitions, rounds)
	}
}

// drive acts on the board through the CLI until stop: mostly adds, some
// cancels of queued tasks and requeues of blocked ones. Only calls that
// exit 0 are recorded; the station may be dead or restarting at any time.
func drive(home string, w int, log *ackLog, stop <-chan struct{}) {
	r := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
	n := 0
	for {
		select {
		case <-stop:
			return
		default:
		}
		time.Sleep(time.Duration(10+r.IntN(50)) * time.Millisecond)
		switch x := r.IntN(100); {
		case x < 55:
			n++
			project := []string{"a", "b"}[r.IntN(2)]
			out, _, code := cli(home, "task", "add", "--project", project, "--title", fmt.Sprintf("w%d-%d", w, n))
			if code == 0 {
				log.add(ack{kind: "add", id: strings.TrimSpace(out)})
			}
		case x < 70:
			if id := pick(home, supervisor.TaskTodo, r); id != "" {
				if _, _, code := cli(home, "task", "cancel", id); code == 0 {
					log.add(ack{kind: "cancel", id: id})
				}
			}
		default:
			state := supervisor.TaskBlocked
			if r.IntN(4) == 0 {
				state = supervisor.TaskCancelled
			}
			if id := pick(home, state, r); id != "" {
				out, _, code := cli(home, "task", "requeue", id)
				if m := requeuedRE.FindStringSubmatch(out); code == 0 && m != nil {
					a, _ := strconv.Atoi(m[2])
					log.add(ack{kind: "requeue", id: m[1], attempt: a})
				}
			}
		}
	}
}

// pick returns a random task in state, or "" (a read, not an act).
func pick(home string, state supervisor.TaskState, r *rand.Rand) string {
	c, err := client.Dial(home)
	if err != nil {
		return ""
	}
	ts, err := c.Tasks(bg(), supervisor.TaskFilter{State: state})
	if err != nil || len(ts) == 0 {
		return ""
	}
	return ts[r.IntN(len(ts))].ID
}

// readAgentAcks is what agents recorded after `agent complete` returned 0:
// one session id ("t12.2") per line.
func readAgentAcks(t *testing.T, path string) []ack {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []ack
	for line := range strings.SplitSeq(string(b), "\n") {
		id, att, ok := strings.Cut(strings.TrimSpace(line), ".")
		if !ok {
			continue
		}
		a, err := strconv.Atoi(att)
		if err != nil {
			t.Fatalf("agent ack %q", line)
		}
		out = append(out, ack{kind: "done", id: id, attempt: a})
	}
	return out
}

// checkBoard checks the invariants on a freshly restarted station and
// returns how many transitions the board holds.
func checkBoard(t *testing.T, s *rig.Station, acks, agentAcks []ack) int {
	t.Helper()
	c := s.Client()
	tasks, err := c.Tasks(bg(), supervisor.TaskFilter{})
	if err != nil {
		t.Fatalf("list tasks: %v", err)
	}
	history := map[string][]supervisor.Transition{}
	total := 0
	for _, task := range tasks {
		// The station goes on moving tasks while we read: a task read
		// with a history that ends elsewhere is read again.
		var d apitype.TaskDetail
		consistent := false
		for range 5 {
			if d, err = c.Task(bg(), task.ID); err != nil {
				t.Fatalf("show task %s: %v", task.ID, err)
			}
			if consistent = chainOK(d) == ""; consistent {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !consistent {
			t.Errorf("task %s: %s; history %+v", task.ID, chainOK(d), d.History)
		}
		history[task.ID] = d.History
		total += len(d.History)
	}
	has := func(id string, f func(supervisor.Transition) bool) bool {
		for _, tr := range history[id] {
			if f(tr) {
				return true
			}
		}
		return false
	}
	for _, a := range append(acks, agentAcks...) {
		var ok bool
		switch a.kind {
		case "add":
			ok = has(a.id, func(tr supervisor.Transition) bool { return tr.From == "" && tr.To == supervisor.TaskTodo })
		case "cancel":
			ok = has(a.id, func(tr supervisor.Transition) bool { return tr.To == supervisor.TaskCancelled && tr.Actor == "person" })
		case "requeue":
			ok = has(a.id, func(tr supervisor.Transition) bool {
				return tr.To == supervisor.TaskTodo && tr.Attempt == a.attempt && tr.From != ""
			})
		case "done":
			ok = has(a.id, func(tr supervisor.Transition) bool {
				return tr.From == supervisor.TaskWorking && tr.To == supervisor.TaskDone && tr.Attempt == a.attempt
			})
		}
		if !ok {
			t.Errorf("acknowledged %s of %s (attempt %d) is not on the board after a kill -9: history %+v", a.kind, a.id, a.attempt, history[a.id])
		}
	}
	checkSlots(t, c)
	return total
}

// chainOK says what is wrong with a task's history, or "".
func chainOK(d apitype.TaskDetail) string {
	h := d.History
	if len(h) == 0 || h[0].From != "" || h[0].To != supervisor.TaskTodo {
		return "history does not start with \"\" → todo"
	}
	for i := 1; i < len(h); i++ {
		if h[i].From != h[i-1].To {
			return fmt.Sprintf("transition %d leaves %s but the task was %s", i, h[i].From, h[i-1].To)
		}
	}
	if last := h[len(h)-1].To; last != d.Task.State {
		return fmt.Sprintf("task is %s but its history ends in %s: two states", d.Task.State, last)
	}
	return ""
}

// checkSlots waits (up to 5s, the station settling after its restart) for
// a moment where no slot is held without a live session: at most
// max_sessions sessions, each project within its concurrency and its
// running count equal to its sessions, and every working task with one.
func checkSlots(t *testing.T, c *client.Client) {
	t.Helper()
	// An error, not a fatal: the caller reports the station's output too.
	if err := testwait.Poll(5*time.Second, "every slot held by a live session after a restart", func() error {
		if why := slotsWrong(c); why != "" {
			return errors.New(why)
		}
		return nil
	}); err != nil {
		t.Error(err)
	}
}

func slotsWrong(c *client.Client) string {
	working, err := c.Tasks(bg(), supervisor.TaskFilter{State: supervisor.TaskWorking})
	if err != nil {
		return err.Error()
	}
	sessions, err := c.Sessions(bg())
	if err != nil {
		return err.Error()
	}
	projects, err := c.Projects(bg())
	if err != nil {
		return err.Error()
	}
	if len(sessions) > crashMaxSessions {
		return fmt.Sprintf("%d sessions run, max_sessions is %d", len(sessions), crashMaxSessions)
	}
	byTask, byProject := map[string]bool{}, map[string]int{}
	for _, x := range sessions {
		byTask[x.TaskID] = true
		byProject[x.Project]++
	}
	for _, w := range working {
		if !byTask[w.ID] {
			return fmt.Sprintf("task %s is working without a session (sessions: %d)", w.ID, len(sessions))
		}
	}
	for _, p := range projects {
		if p.Running > p.Concurrency || p.Running != byProject[p.Name] {
			return fmt.Sprintf("project %s holds %d slots (concurrency %d) for %d live sessions", p.Name, p.Running, p.Concurrency, byProject[p.Name])
		}
	}
	return ""
}
