package station

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// recover settles what a crash left. A session whose backend outlives the
// station (tmux) and is still there is adopted again, its watchdog resumed
// from its last output. Any other task marked working has lost its session
// (a pty dies with the station): it is blocked with a reason that says so,
// and a requeue resumes it.
func (st *Station) recover(ctx context.Context) error {
	recs, err := st.board.Sessions(ctx, true)
	if err != nil {
		return fmt.Errorf("recover: list sessions: %w", err)
	}
	adopted, keep := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		r.Token = st.writes.rawToken(ctx, r)
		if st.adopt(ctx, r) {
			adopted[r.TaskID], keep[r.ID] = true, true
			continue
		}
		// Before its task is blocked (and perhaps requeued into the same
		// worktree), end what is left of the session.
		st.endLost(r)
		r.State, r.EndedAt = "lost", time.Now().UTC()
		if err := st.board.SaveSession(ctx, r); err != nil {
			return fmt.Errorf("recover: end session %s: %w", r.ID, err)
		}
		st.writes.forgetToken(ctx, r.ID)
	}
	st.endUnrecorded(keep)
	// An adopted session still reads its files; the rest were left by a
	// crash.
	st.Sessions.sweepSessionDirs(keep)
	tasks, err := st.Shared.recoverable(ctx)
	if err != nil {
		return fmt.Errorf("recover: list working tasks: %w", err)
	}
	for _, t := range tasks {
		if adopted[t.ID] {
			continue
		}
		nt, err := st.board.Move(ctx, t.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskBlocked,
			Reason: "station restarted: session lost", Actor: "station"})
		if err != nil {
			if errors.Is(err, supervisor.ErrConflict) {
				continue
			}
			return fmt.Errorf("recover: block task %s: %w", t.ID, err)
		}
		st.log.Warn("task lost its session in a restart", "task", t.ID)
		st.host.publishTask(nt)
	}
	return nil
}

// adopt reattaches to a session that outlived the station, if its backend
// can and the session and its task are still live.
// endLost ends a session the station lost in a crash and will not adopt:
// a window its backend still holds (tmux: the window, and the tree under
// it), then every process that carries its marker, which finds what left
// the tree (a setsid'd or nohup'd child of a pty agent killed with the
// station). The record's pid is not used: it may name another process now.
func (st *Station) endLost(r supervisor.SessionRecord) {
	if ad, ok := st.opt.Spawners[r.Backend].(supervisor.Adopter); ok && r.Handle != "" {
		if proc, ok, err := ad.Adopt(r.Handle); err == nil && ok {
			if err := proc.Stop(stopGrace); err != nil {
				st.log.Warn("end a lost session's window", "session", r.ID, "err", err)
			}
			_ = proc.Close()
		}
	}
	if st.opt.EndMarked == nil || r.Token == "" {
		return
	}
	if err := st.opt.EndMarked(sessionMarker(r.Token), stopGrace); err != nil {
		st.log.Warn("end a lost session's processes", "session", r.ID, "err", err)
	} else {
		st.log.Info("ended what was left of a lost session", "session", r.ID, "task", r.TaskID)
	}
}

// windowLister is an Adopter that can list the windows it holds (tmux).
type windowLister interface {
	Windows() (handles []string, err error)
}

// endUnrecorded ends the session windows no session record names, but
// those of sessions in keep (adopted): a station that died between
// starting an agent's window and recording its session left the agent
// running with nothing to find it by but its window.
func (st *Station) endUnrecorded(keep map[string]bool) {
	for name, sp := range st.opt.Spawners {
		ad, ok := sp.(supervisor.Adopter)
		wl, lists := sp.(windowLister)
		if !ok || !lists {
			continue
		}
		handles, err := wl.Windows()
		if err != nil {
			st.log.Warn("list the backend's windows", "backend", name, "err", err)
			continue
		}
		for _, h := range handles {
			_, id, _ := strings.Cut(h, "/")
			if keep[id] || !sessionName().MatchString(id) {
				continue
			}
			proc, ok, err := ad.Adopt(h)
			if err != nil || !ok {
				continue // gone, or dead (and removed by Adopt)
			}
			st.log.Warn("ending a session window no session record names (its station died before recording it)", "session", id, "handle", h)
			if err := proc.Stop(stopGrace); err != nil {
				st.log.Warn("end an unrecorded session's window", "session", id, "err", err)
			}
			_ = proc.Close()
		}
	}
}

// sessionMarker is the environment entry every process of a session
// inherits: its token, unique on the machine.
func sessionMarker(token string) string { return "BUILDSTATION_TOKEN=" + token }

func (st *Station) adopt(ctx context.Context, r supervisor.SessionRecord) bool {
	sp, ok := st.opt.Spawners[r.Backend]
	ad, isAdopter := sp.(supervisor.Adopter)
	if !ok || !isAdopter || r.Handle == "" || r.Token == "" {
		return false
	}
	task, err := st.board.Task(ctx, r.TaskID)
	want := r.Kind.TaskState()
	_, lost := st.Shared.shared()
	if sb, ok := st.Shared.shared(); ok {
		lost = !slices.Contains(sb.Held(), r.TaskID)
	}
	p, known := st.Config().Project(task.Project)
	if err == nil && (task.State != want || lost || !known) {
		// The task moved on, or was reaped and maybe let to another
		// station: its window must not go on working beside the new
		// owner's. (An error reading the task leaves the window be.)
		st.endOrphan(ad, r)
		return false
	}
	if err != nil {
		return false
	}
	proc, ok, err := ad.Adopt(r.Handle)
	if err != nil || !ok {
		st.log.Warn("cannot adopt session", "session", r.ID, "handle", r.Handle, "err", err)
		return false
	}
	ws, err := st.workspace(ctx, p, task.ID)
	if err != nil {
		ws = supervisor.Workspace{Dir: p.Path}
	}
	lastOutput, tail := r.StartedAt, []byte(nil)
	if f, err := st.files.OpenTranscript(r.ID); err == nil {
		if fi, err := f.Stat(); err == nil {
			lastOutput = fi.ModTime() // the transcript's last write is the last output
			tail = readTail(f, fi.Size(), ringSize)
		}
		_ = f.Close()
	}
	transcript, err := st.files.AppendTranscript(r.ID)
	if err != nil {
		st.log.Warn("cannot reopen transcript", "session", r.ID, "err", err)
		_ = proc.Close()
		return false
	}
	if err := st.writeSessionURL(r.ID); err != nil {
		// Its agent reaches this station only if it listens where the
		// last one did.
		st.log.Warn("cannot tell an adopted session where the station listens", "session", r.ID, "url", st.opt.URL, "err", err)
	}
	s := st.newSession(p, task, r.Kind, r.ID, ws, r.Token, proc, transcript)
	s.backend, s.resumeFrom = r.Backend, lastOutput
	s.con.restore(tail, lastOutput)
	st.register(ctx, s, r.StartedAt)
	st.log.Info("adopted a session that outlived the station", "session", r.ID, "task", r.TaskID, "silent_since", lastOutput)
	return true
}

// endOrphan ends the window of a session record nobody may adopt.
func (st *Station) endOrphan(ad supervisor.Adopter, r supervisor.SessionRecord) {
	proc, ok, err := ad.Adopt(r.Handle)
	if err != nil || !ok {
		return
	}
	st.log.Warn("ending a session whose task is no longer this station's", "session", r.ID, "task", r.TaskID, "handle", r.Handle)
	if err := proc.Stop(stopGrace); err != nil {
		st.log.Warn("end orphaned session", "session", r.ID, "err", err)
	}
	_ = proc.Close()
}

// readTail returns up to n bytes from the end of f, size bytes long.
func readTail(f io.ReaderAt, size, n int64) []byte {
	off := max(size-n, 0)
	buf := make([]byte, size-off)
	k, _ := f.ReadAt(buf, off)
	return buf[:k]
}
