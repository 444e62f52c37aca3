package station

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// On a shared board every station shows every station's sessions: each
// station writes its own sessions' state changes to the board (one row per
// session, on a change of state only, never per byte of output), and lists
// the others' from there. A session's console stays on the machine that
// runs it; the others list it with its station's name and answer a request
// for its console with an error that says where to go.

// remoteTimeout bounds a read of the other stations' sessions: a listing
// must answer even when the shared board is slow, with this station's own.
const remoteTimeout = 5 * time.Second

// stateWriter carries sessions' state changes to a shared board off the
// session goroutines, so a session never waits on the database. It keeps
// only the latest state of each session; its one goroutine (Serve, in the
// station's tree) writes them.
type stateWriter struct {
	sb  supervisor.SharedBoard
	log *slog.Logger

	mu     sync.Mutex
	latest map[string]supervisor.SessionState
	kick   chan struct{}
}

func newStateWriter(sb supervisor.SharedBoard, log *slog.Logger) *stateWriter {
	return &stateWriter{sb: sb, log: log, latest: map[string]supervisor.SessionState{}, kick: make(chan struct{}, 1)}
}

func (w *stateWriter) String() string { return "session states" }

// record queues session id's new state; it never blocks.
func (w *stateWriter) record(id string, state supervisor.SessionState) {
	w.mu.Lock()
	w.latest[id] = state
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Serve writes queued session states to the board until ctx ends. A state
// written after its session ended changes nothing (the board keeps ended
// records as they are).
func (w *stateWriter) Serve(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.kick:
		}
		w.mu.Lock()
		batch := w.latest
		w.latest = map[string]supervisor.SessionState{}
		w.mu.Unlock()
		for id, state := range batch {
			if err := w.sb.SetSessionState(ctx, id, state.String()); err != nil && ctx.Err() == nil {
				w.log.Warn("record session state on the shared board", "session", id, "state", state, "err", err)
			}
		}
	}
}

// stationName is the name on a shared board, "" on this station's own.
func (ho *host) stationName() string {
	if sb, ok := ho.st.Shared.shared(); ok {
		return sb.Station()
	}
	return ""
}

// recordState queues a live session's new state for the shared board; on
// this station's own board it does nothing. It never blocks.
func (ho *host) recordState(id string, state supervisor.SessionState) {
	if ho.st.states == nil || state == supervisor.SessEnded {
		return // the end is recorded by settle, with its time
	}
	ho.st.states.record(id, state)
}

// remoteSessions lists the other stations' live sessions, or none on this
// station's own board or when the shared board does not answer in time (a
// board known to be away is not asked: status says so, with since when).
func (sh *Shared) remoteSessions() []supervisor.SessionInfo {
	sb, ok := sh.shared()
	if !ok || !sh.Link().Reachable {
		return nil
	}
	ctx, cancel := context.WithTimeout(sh.st.life, min(remoteTimeout, sh.st.host.writeTimeout()))
	defer cancel()
	list, err := sb.OtherSessions(ctx)
	if err != nil {
		if unreachable(err) {
			sh.st.writes.link.down(err)
		}
		sh.st.log.Warn("list the other stations' sessions", "err", err)
		return nil
	}
	return list
}

// remoteSession finds a live session of another station by id.
func (sh *Shared) remoteSession(id string) (supervisor.SessionInfo, bool) {
	for _, si := range sh.remoteSessions() {
		if si.ID == id {
			return si, true
		}
	}
	return supervisor.SessionInfo{}, false
}

// RemoteTask republishes a task another station moved on the shared board,
// so this station's subscribers (trays, event streams) see it live.
func (sh *Shared) RemoteTask(ctx context.Context, id string) {
	t, err := sh.st.board.Task(ctx, id)
	if err != nil {
		sh.st.log.Debug("read a task another station moved", "task", id, "err", err)
		return
	}
	sh.st.host.publishTask(t)
}

// RemoteSession republishes a state change of another station's session.
func (sh *Shared) RemoteSession(si supervisor.SessionInfo) {
	sh.st.bus.Publish(supervisor.Event{Kind: supervisor.EventSession, Session: &si})
}
