package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// The crash test's helper process is this test binary re-run with these
// set; see TestHelperProcess.
const (
	envHelper   = "BUILDSTATION_STORE_CRASH_HELPER"
	envDB       = "BUILDSTATION_STORE_CRASH_DB"
	envFirstSeq = "BUILDSTATION_STORE_CRASH_FIRST_SEQ"
)

const crashTasks = 5

// crashCycle is the path the helper walks each task along; every step is a
// move with a one-state From, so a lost or doubled commit shows up as a
// conflict or a gap.
var crashCycle = map[supervisor.TaskState]supervisor.TaskState{
	supervisor.TaskTodo:    supervisor.TaskWorking,
	supervisor.TaskWorking: supervisor.TaskReview,
	supervisor.TaskReview:  supervisor.TaskTodo,
}

// TestHelperProcess is not a test: run by TestCrashLosesNoAcknowledgedMove,
// it moves tasks until it is killed, printing "seq id" to stdout after each
// Move returns, that is after each acknowledged transition.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(envHelper) != "1" {
		t.Skip("helper process for TestCrashLosesNoAcknowledgedMove")
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	s, err := Open(os.Getenv(envDB))
	if err != nil {
		fail(err)
	}
	seq, err := strconv.Atoi(os.Getenv(envFirstSeq))
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	for ; ; seq++ {
		id := supervisor.TaskID(int64(seq%crashTasks + 1))
		cur, err := s.Task(ctx, id)
		if err != nil {
			fail(err)
		}
		next := crashCycle[cur.State]
		_, err = s.Move(ctx, id, supervisor.Move{
			From:        []supervisor.TaskState{cur.State},
			To:          next,
			Reason:      fmt.Sprint("seq ", seq),
			Actor:       "crash-helper",
			BumpAttempt: next == supervisor.TaskTodo,
		})
		if err != nil {
			fail(err)
		}
		// Unbuffered: once the parent reads this line, the move was
		// acknowledged.
		fmt.Fprintf(os.Stdout, "%d %s\n", seq, id)
	}
}

// TestCrashLosesNoAcknowledgedMove kills a process writing the board with
// SIGKILL at a random point, several times over, and checks after each
// that every move it acknowledged is on the board and every task is whole.
func TestCrashLosesNoAcknowledgedMove(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range crashTasks {
		if _, err := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: fmt.Sprint("task ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	next := 1 // the next move's sequence number
	for round := range 3 {
		acked := crashRound(t, path, next, 5+rand.IntN(100))
		if len(acked) == 0 {
			t.Fatalf("round %d: the helper acknowledged nothing", round)
		}
		next = checkAfterCrash(t, path, acked, next)
		t.Logf("round %d: %d moves acknowledged, board at seq %d", round, len(acked), next-1)
	}
}

// crashRound runs the helper from sequence number first, kills it after it
// has acknowledged killAfter moves, and returns every move it acknowledged
// (seq → task id), the ones printed after the kill was sent included.
func crashRound(t *testing.T, path string, first, killAfter int) map[int]string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envHelper+"=1", envDB+"="+path, envFirstSeq+"="+strconv.Itoa(first))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[int]string{}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		seqText, id, ok := strings.Cut(sc.Text(), " ")
		seq, err := strconv.Atoi(seqText)
		if !ok || err != nil {
			// A line cut short by the kill was never acknowledged.
			continue
		}
		acked[seq] = id
		if !killed && len(acked) >= killAfter {
			// Process.Kill is SIGKILL on unix (TerminateProcess on
			// windows): no deferred Close, no checkpoint.
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the helper ended before it was killed: %v", err)
	}
	return acked
}

// checkAfterCrash reopens the board and checks it against what the helper
// acknowledged; it returns the sequence number the next round starts at.
func checkAfterCrash(t *testing.T, path string, acked map[int]string, first int) int {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	ctx := context.Background()

	onBoard := map[int]string{} // seq → task id, from the history
	for n := 1; n <= crashTasks; n++ {
		id := supervisor.TaskID(int64(n))
		task, err := s.Task(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if h[0].From != "" || h[0].To != supervisor.TaskTodo {
			t.Errorf("%s: history starts %+v, want \"\" → todo", id, h[0])
		}
		for i := 1; i < len(h); i++ {
			if h[i].From != h[i-1].To {
				t.Errorf("%s: history row %d goes %s → %s after a row that went to %s", id, i, h[i].From, h[i].To, h[i-1].To)
			}
			seq, err := strconv.Atoi(strings.TrimPrefix(h[i].Reason, "seq "))
			if err != nil {
				t.Fatalf("%s: history row %d reason %q", id, i, h[i].Reason)
			}
			if prev, dup := onBoard[seq]; dup {
				t.Errorf("seq %d on the board twice (%s and %s)", seq, prev, id)
			}
			onBoard[seq] = id
		}
		last := h[len(h)-1]
		if !task.State.Valid() || task.State != last.To || task.Attempt != last.Attempt || !task.UpdatedAt.Equal(last.At) {
			t.Errorf("%s is %s attempt %d at %v, but its history ends at %s attempt %d at %v",
				id, task.State, task.Attempt, task.UpdatedAt, last.To, last.Attempt, last.At)
		}
	}

	maxAcked := 0
	for seq, id := range acked {
		if got, ok := onBoard[seq]; !ok || got != id {
			t.Errorf("acknowledged move seq %d of %s is not on the board", seq, id)
		}
		maxAcked = max(maxAcked, seq)
	}
	// The moves on the board are 1…M with no gap, and at most one of them
	// (committed, killed before it was printed) was never acknowledged.
	for seq := 1; seq <= len(onBoard); seq++ {
		if _, ok := onBoard[seq]; !ok {
			t.Errorf("seq %d missing from the board, which holds %d moves", seq, len(onBoard))
		}
	}
	if m := len(onBoard); m < maxAcked || m > maxAcked+1 || maxAcked < first {
		t.Errorf("board holds moves 1…%d; helper acknowledged up to %d starting at %d", m, maxAcked, first)
	}
	return len(onBoard) + 1
}
