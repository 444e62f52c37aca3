package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/station"
)

// originStation is the real station's tasks (apitest.Board) that record
// who they are told cancelled a task.
type originStation struct {
	*tasksArea
	st  *station.Station
	mu  sync.Mutex
	got []string
}

// tasksArea names the embedded area apart from its Tasks verb.
type tasksArea = station.Tasks

// areas serve the station with its tasks recording.
func (s *originStation) areas() api.Areas {
	a := apitest.Areas(s.st)
	a.Tasks = s
	return a
}

func newOriginStation(st *station.Station) *originStation {
	return &originStation{tasksArea: st.Tasks, st: st}
}

func (s *originStation) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	who := "person"
	if sid, ok := supervisor.Origin(ctx); ok {
		who = "session " + sid
	} else if supervisor.OriginUnverified(ctx) {
		who = supervisor.ActorUnverified
	}
	s.mu.Lock()
	s.got = append(s.got, who)
	s.mu.Unlock()
	return s.tasksArea.Cancel(ctx, id)
}

// A program inside a session's process tree that unset the session's
// variables and calls the API with the station token (what
// `env -u BUILDSTATION_SESSION_ID -u BUILDSTATION_TOKEN buildstation task
// cancel` does) is still recorded as that session: the station finds the
// caller's process from the connection and its ancestry. A call from
// outside every session is a person's; without a way to tell, it is of
// unverified origin.
func TestOperatorOriginFromTheProcessTree(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for /dev/tcp")
	}
	fake := newOriginStation(apitest.Board(t, "web"))
	for range 3 {
		if _, err := fake.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	// The session's agent: a shell whose grandchild makes the call with
	// no BUILDSTATION_ variable at all.
	agent := exec.Command("bash", "-c", `bash -c 'read -r go; exec 3<>/dev/tcp/127.0.0.1/$PORT; printf "POST /v1/tasks/t1/cancel HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer tok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" $PORT >&3; cat <&3'; true`)
	srv := api.NewServer(fake.areas(), "tok", nil)
	srv.SetCallers(newSessionCallers(func() []supervisor.SessionInfo {
		return []supervisor.SessionInfo{{ID: "t1.1", TaskID: "t1", PID: agent.Process.Pid}}
	}))
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	port := hs.URL[strings.LastIndex(hs.URL, ":")+1:]
	agent.Env = []string{"PATH=/usr/bin:/bin", "PORT=" + port}
	in, _ := agent.StdinPipe()
	var out strings.Builder
	agent.Stdout = &out
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(in, "go")
	done := make(chan error, 1)
	go func() { done <- agent.Wait() }()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(out.String(), "200 OK") {
			t.Fatalf("the agent's call: %v\n%s", err, out.String())
		}
	case <-time.After(time.Minute):
		agent.Process.Kill()
		t.Fatal("the agent's call did not finish")
	}

	// The same call from this process, outside every session.
	req := httptest.NewRequest("POST", hs.URL+"/v1/tasks/t2/cancel", nil)
	req.RequestURI = ""
	req.Header.Set("Authorization", "Bearer tok")
	if resp, err := hs.Client().Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("cancel t2: %v %v", resp, err)
	}
	// And where the OS cannot tell.
	srv.SetCallers(sessionCallers{
		sessions: func() []supervisor.SessionInfo { return nil },
		owners:   func(client, server netip.AddrPort) ([]int, error) { return nil, errors.ErrUnsupported },
	})
	req = httptest.NewRequest("POST", hs.URL+"/v1/tasks/t3/cancel", nil)
	req.RequestURI = ""
	req.Header.Set("Authorization", "Bearer tok")
	if resp, err := hs.Client().Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("cancel t3: %v %v", resp, err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if got, want := strings.Join(fake.got, ", "), "session t1.1, person, unverified origin"; got != want {
		t.Errorf("recorded origins: %s; want %s", got, want)
	}
}

// The hostile pass: an agent that read the station's token allowed its own
// request from a process that left the session's tree (`setsid -f`, its
// parent gone, so init adopts it) and was taken for a person. Such a
// process still carries the session's environment, so it is that
// session's: a verb reserved to a person is refused.
func TestOperatorOriginOfAProcessThatLeftTheTree(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	fake := newOriginStation(apitest.Board(t, "web"))
	if _, err := fake.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "answer")
	// The agent starts a process of its own session that leaves its tree
	// and then, with no BUILDSTATION_ variable but the one it inherited,
	// calls the API with the station's token.
	agent := exec.Command("bash", "-c", `setsid -f bash -c 'sleep 0.5; exec 3<>/dev/tcp/127.0.0.1/$PORT; printf "POST /v1/tasks/t1/cancel HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer tok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" $PORT >&3; cat <&3 > $OUT.part; mv $OUT.part $OUT'; sleep 60`)
	var pid atomic.Int64
	srv := api.NewServer(fake.areas(), "tok", nil)
	srv.SetCallers(newSessionCallers(func() []supervisor.SessionInfo {
		return []supervisor.SessionInfo{{ID: "t1.1", TaskID: "t1", PID: int(pid.Load())}}
	}))
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	port := hs.URL[strings.LastIndex(hs.URL, ":")+1:]
	agent.Env = []string{"PATH=/usr/bin:/bin", "PORT=" + port, "OUT=" + out, "BUILDSTATION_SESSION_ID=t1.1"}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	pid.Store(int64(agent.Process.Pid))
	defer func() { agent.Process.Kill(); agent.Wait() }()
	var answer []byte
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(out); err == nil {
			answer = b
			break
		}
	}
	if !strings.Contains(string(answer), "200 OK") {
		t.Fatalf("the escaped process's call: %q", answer)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if got := strings.Join(fake.got, ", "); got != "session t1.1" {
		t.Errorf("a process that left session t1.1's tree was recorded as %q; want session t1.1", got)
	}
}
