package station

import (
	"crypto/subtle"
	"maps"
	"slices"
	"sync"
)

// registry is the station's book of its sessions: the live ones by id,
// those being spawned by token (their agent may report before the spawn
// returns), the tasks whose session is starting, and how many run per
// project. It has a lock of its own and calls nobody while holding it, so
// a session ending, the scheduler counting slots and an API request
// finding a session never wait on each other or on the board.
type registry struct {
	mu       sync.Mutex
	sessions map[string]*session       // live sessions by id
	pending  map[string]pendingSession // by token: sessions being spawned
	running  map[string]int            // live sessions per project
	starting map[string]bool           // tasks whose session is being started
}

// pendingSession is a session being spawned: its token is already in its
// agent's environment.
type pendingSession struct {
	id    string
	ready chan struct{} // closed once it is registered (or failed)
}

func newRegistry() *registry {
	return &registry{sessions: map[string]*session{}, pending: map[string]pendingSession{},
		running: map[string]int{}, starting: map[string]bool{}}
}

// add makes s live and counts it in its project's slots.
func (r *registry) add(s *session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions[s.spec.ID] = s
	r.running[s.spec.Project]++
}

// remove forgets an ended session and frees its slot.
func (r *registry) remove(s *session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sessions, s.spec.ID)
	r.running[s.spec.Project]--
}

// free says whether project may start one more session: fewer than max
// run on the station and fewer than concurrency in the project.
func (r *registry) free(project string, concurrency, max int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions) < max && r.running[project] < concurrency
}

// runningIn is how many sessions run in project.
func (r *registry) runningIn(project string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running[project]
}

// lookup finds a live session by its id, or by its task's id: a person
// knows the task (t2) more often than the attempt (t2.1), and a task has
// one live session at a time (its work or, later, its review).
func (r *registry) lookup(id string) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		return s
	}
	var found *session
	for _, s := range r.sessions {
		if s.spec.TaskID == id && (found == nil || s.seq > found.seq) {
			found = s
		}
	}
	return found
}

// forTask is task id's live session, or nil.
func (r *registry) forTask(taskID string) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		if s.spec.TaskID == taskID {
			return s
		}
	}
	return nil
}

// live returns the live sessions, oldest first.
func (r *registry) live() []*session {
	r.mu.Lock()
	out := slices.Collect(maps.Values(r.sessions))
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b *session) int { return int(a.seq - b.seq) })
	return out
}

// starts marks task id's session as starting, until the returned func is
// called: a lease held for it meanwhile is not an orphan.
func (r *registry) starts(taskID string) (done func()) {
	r.mu.Lock()
	r.starting[taskID] = true
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.starting, taskID)
		r.mu.Unlock()
	}
}

// startingNow lists the tasks whose session is starting.
func (r *registry) startingNow() map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.starting)
}

// expect holds session id's token as pending until done is called (once
// the session is registered, or failed to start).
func (r *registry) expect(token, id string) (done func()) {
	ready := make(chan struct{})
	r.mu.Lock()
	r.pending[token] = pendingSession{id: id, ready: ready}
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.pending, token)
		r.mu.Unlock()
		close(ready)
	}
}

// byToken finds the live session token belongs to, or, when its session
// is still being spawned, a channel closed once it is registered. Every
// live token is compared in constant time rather than looked up in a map,
// so timing says nothing about a guess.
func (r *registry) byToken(token string) (*session, <-chan struct{}) {
	var found *session
	var wait chan struct{}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		if subtle.ConstantTimeCompare([]byte(s.spec.Token), []byte(token)) == 1 {
			found = s
		}
	}
	for t, p := range r.pending {
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			wait = p.ready
		}
	}
	if found != nil {
		return found, nil
	}
	return nil, wait
}

// tokenOf is live session id's token, or, when it is still being spawned,
// a channel closed once it is registered.
func (r *registry) tokenOf(id string) (string, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		return s.spec.Token, nil
	}
	for _, p := range r.pending {
		if p.id == id {
			return "", p.ready
		}
	}
	return "", nil
}
