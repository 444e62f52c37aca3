package apitest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/term"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// agentArg is the argument that makes a test binary (Main) the agent.
const agentArg = "apitest-agent"

// Main runs a test binary's tests; a package whose tests run sessions
// (Agent) calls it from TestMain. When the station started the binary as
// a session's agent, it is the agent instead, so the agent is the test
// binary itself and runs wherever the tests do (Windows' ConPTY
// included), with no shell or program of the machine's.
func Main(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == agentArg {
		os.Exit(agentMain(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// Agent is the command of a project whose sessions run the test binary
// as their agent (the package's TestMain calls Main). The agent says
// "ready", then answers each line typed to it (ended by Enter, "\r"):
//
//	size   "size COLSxROWS", its terminal's size
//	exit   it exits (0), ending its session
//	other  "got N HASH": the line's length in bytes and the first 8 bytes
//	       of its SHA-256 in hex (Got)
//
// It echoes nothing, so its console shows only what it says.
//
// On Windows the test is skipped: the agent would run in a ConPTY, which
// no run has proven yet (under Wine's ConPTY it reads no input and shows
// no output, so its session never starts working); the API's code is the
// same there, and platform/pty's tests cover ConPTY itself.
func Agent(t testing.TB) []string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a session whose agent is the test binary is not proven under Windows' ConPTY; this test runs on Linux and macOS")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{self, agentArg}
}

// Got is what Agent says for a line it read.
func Got(line []byte) string {
	sum := sha256.Sum256(line)
	return fmt.Sprintf("got %d %x", len(line), sum[:8])
}

func agentMain(in *os.File, out io.Writer) int {
	if term.IsTerminal(int(in.Fd())) {
		if old, err := term.MakeRaw(int(in.Fd())); err == nil {
			defer term.Restore(int(in.Fd()), old)
		}
	}
	fmt.Fprint(out, "ready\r\n")
	r := bufio.NewReaderSize(in, 1<<16)
	var line []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0
		}
		if b != '\r' && b != '\n' {
			line = append(line, b)
			continue
		}
		if len(line) == 0 {
			continue
		}
		switch string(line) {
		case "exit":
			return 0
		case "size":
			w, h, err := term.GetSize(int(os.Stdout.Fd()))
			if err != nil {
				fmt.Fprintf(out, "size: %v\r\n", err)
			} else {
				fmt.Fprintf(out, "size %dx%d\r\n", w, h)
			}
		default:
			fmt.Fprint(out, Got(line)+"\r\n")
		}
		line = line[:0]
	}
}

// tokens is the real spawner (platform/pty) under a station of Start's,
// noting each session's token from the environment it is started with,
// as the agent receives it.
type tokens struct {
	supervisor.Spawner
	mu sync.Mutex
	by map[string]string // session id → token
}

func (s *tokens) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	var id, tok string
	for _, kv := range spec.Env {
		if v, ok := cutKey(kv, apitype.EnvSessionID); ok {
			id = v
		}
		if v, ok := cutKey(kv, apitype.EnvToken); ok {
			tok = v
		}
	}
	s.mu.Lock()
	s.by[id] = tok
	s.mu.Unlock()
	return s.Spawner.Spawn(spec)
}

func cutKey(kv, key string) (string, bool) {
	if len(kv) > len(key) && kv[:len(key)] == key && kv[len(key)] == '=' {
		return kv[len(key)+1:], true
	}
	return "", false
}

// Token is the token the station gave session id's agent; "" for a
// session it did not start.
func (e Env) Token(id string) string {
	if e.spawned == nil {
		return ""
	}
	e.spawned.mu.Lock()
	defer e.spawned.mu.Unlock()
	return e.spawned.by[id]
}

// Session waits for task id's work session to be running (its process
// started, pid known, past "starting") and returns it with its agent's token: it waits on
// the station's events, not a clock, and fails the test after a minute.
func (e Env) Session(t testing.TB, taskID string) (supervisor.SessionInfo, string) {
	t.Helper()
	return e.waitSession(t, taskID, supervisor.KindWork)
}

// Review is Session for task id's review session (Rig.Review).
func (e Env) Review(t testing.TB, taskID string) (supervisor.SessionInfo, string) {
	t.Helper()
	return e.waitSession(t, taskID, supervisor.KindReview)
}

func (e Env) waitSession(t testing.TB, taskID string, kind supervisor.SessionKind) (supervisor.SessionInfo, string) {
	t.Helper()
	sub := e.Station.Sessions.Subscribe(256)
	defer sub.Close()
	find := func() (supervisor.SessionInfo, bool) {
		for _, s := range e.Station.Sessions.Sessions() {
			if s.TaskID == taskID && (s.Kind == kind || s.Kind == "" && kind == supervisor.KindWork) && s.PID != 0 &&
				s.State != supervisor.SessStarting && s.State != supervisor.SessEnded {
				return s, true
			}
		}
		return supervisor.SessionInfo{}, false
	}
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		if s, ok := find(); ok {
			return s, e.Token(s.ID)
		}
		select {
		case <-sub.C:
		case <-timeout.C:
			tk, err := e.Station.Tasks.Task(context.Background(), taskID)
			t.Fatalf("task %s's %s session did not start in a minute; the task: %+v, %v; sessions: %+v", taskID, kind, tk, err, e.Station.Sessions.Sessions())
		}
	}
}

// Ended waits for session id to have ended, on the station's events.
func (e Env) Ended(t testing.TB, id string) {
	t.Helper()
	sub := e.Station.Sessions.Subscribe(256)
	defer sub.Close()
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		if s, ok := e.Station.Sessions.Session(id); !ok || s.State == supervisor.SessEnded {
			return
		}
		select {
		case <-sub.C:
		case <-timeout.C:
			t.Fatalf("session %s did not end in a minute", id)
		}
	}
}

// WaitTask waits, on the station's events, for task id to be in state
// want (a session's end settles its task a moment after the call that
// ended it) and returns it; it fails the test after a minute.
func (e Env) WaitTask(t testing.TB, id string, want supervisor.TaskState) supervisor.Task {
	t.Helper()
	sub := e.Station.Sessions.Subscribe(256)
	defer sub.Close()
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		tk, err := e.Station.Tasks.Task(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if tk.State == want {
			return tk
		}
		select {
		case <-sub.C:
		case <-timeout.C:
			t.Fatalf("task %s is %s after a minute, want %s", id, tk.State, want)
		}
	}
}
