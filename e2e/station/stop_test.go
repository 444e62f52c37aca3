//go:build linux

package station_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// Stopping the station (Ctrl-C, SIGTERM) says what happens to the sessions
// it runs, in a line a person reads.
func TestStopSaysWhatHappensToTheSessions(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s")))
	id := s.AddTask("web", "busy", "print working; wedge")
	s.WaitTranscript(id, "working", 20*time.Second)
	s.Stop()
	want := "buildstation: stopping the station: ending 1 session (" + id + ".1; their tasks are blocked: requeue them"
	if !strings.Contains(s.Log.String(), want) {
		t.Errorf("the station's stderr lacks %q:\n%s", want, s.Log)
	}
}

// The first Ctrl-C drains: the message names the grace, no new task
// starts, the running agent finishes its task, and then the station stops
// by itself.
func TestFirstStopLetsRunningAgentsFinish(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, "stop_grace = \"45s\"\n"+rig.ProjectTOML("web", t.TempDir(), "30s", "30s", "concurrency = 1")))
	id := s.AddTask("web", "finishing", "print working; sleep 4s; complete finished in the grace")
	s.WaitTranscript(id, "working", 20*time.Second)
	s.Daemon.Drain()
	want := "buildstation: draining: no new task starts; 1 running session (" + id + ".1) has up to 45 s to finish; press Ctrl-C again to end them now"
	rig.Eventually(t, 10*time.Second, func() bool { return strings.Contains(s.Log.String(), want) }, "the drain's message", s.Log)
	later := s.AddTask("web", "later", "complete never started")
	rig.Eventually(t, 30*time.Second, func() bool { return !s.Daemon.Running() }, "the station to stop once drained", s.Log)
	log := s.Log.String()
	// The agent completed its task, it was not stopped.
	if !finishedByItself(log, id) {
		t.Errorf("the running session did not finish by itself:\n%s", log)
	}
	if strings.Contains(log, "session="+later+".1") {
		t.Errorf("a task started while draining:\n%s", log)
	}
	// The board says done: a station started again reads it.
	s2 := rig.StartOn(t, s.Home)
	if got := s2.Task(id); got.State != "done" {
		t.Errorf("task %s is %s after the drain, want done", id, got.State)
	}
}

// A stop asked through the API (what `service stop` of a Windows logon
// task does before it terminates the process) drains like a first Ctrl-C:
// the running agent finishes, nothing new starts, the station exits.
func TestAskedStopDrainsLikeAFirstCtrlC(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, "stop_grace = \"45s\"\n"+rig.ProjectTOML("web", t.TempDir(), "30s", "30s", "concurrency = 1")))
	id := s.AddTask("web", "finishing", "print working; sleep 4s; complete finished in the grace")
	s.WaitTranscript(id, "working", 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := s.Client().RequestStop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := "the station drains, then stops: no new task starts; 1 running session (" + id + ".1) has up to 45 s to finish"; msg != want {
		t.Errorf("the stop said %q, want %q", msg, want)
	}
	later := s.AddTask("web", "later", "complete never started")
	rig.Eventually(t, 30*time.Second, func() bool { return !s.Daemon.Running() }, "the station to stop once drained", s.Log)
	log := s.Log.String()
	if !finishedByItself(log, id) {
		t.Errorf("the running session did not finish by itself:\n%s", log)
	}
	if strings.Contains(log, "session="+later+".1") {
		t.Errorf("a task started while draining:\n%s", log)
	}
}

// finishedByItself: the log says task id's first session ended after its
// agent completed, not stopped by the drain. The station ends a completed
// session (how=ended) unless the agent, done, exited first (how=exited):
// which comes first is the machine's timing. Either way the task was told
// finished first.
func finishedByItself(log, id string) bool {
	if !strings.Contains(log, "kind=finished task="+id+" ") {
		return false
	}
	ended := strings.Contains(log, `msg="session ended" session=`+id+`.1 how=ended`) ||
		strings.Contains(log, `msg="session ended" session=`+id+`.1 how=exited code=0`)
	return ended && !strings.Contains(log, "how=stopped")
}
