package supervisor

import (
	"sync"
	"sync/atomic"
	"time"
)

// EventKind names what changed.
type EventKind string

const (
	EventTask    EventKind = "task"    // a task moved, or its work was put on record or merged (Task set)
	EventSession EventKind = "session" // a session changed state (Session set)
	EventNotice  EventKind = "notice"  // a notification was raised (Notice set)
	EventProject EventKind = "project" // a project was paused or resumed
	EventBoard   EventKind = "board"   // a shared board became unreachable or reachable again (Board set)
	EventPhone   EventKind = "phone"   // the phone's service stopped or started taking notices (Phone set)
)

// Event is one change, as the tray, the API stream and the notifier see it.
type Event struct {
	Kind    EventKind    `json:"kind"`
	At      time.Time    `json:"at"`
	Task    *Task        `json:"task,omitempty"`
	Session *SessionInfo `json:"session,omitempty"`
	Notice  *Notice      `json:"notice,omitempty"`
	Project string       `json:"project,omitempty"`
	Board   *BoardLink   `json:"board,omitempty"`
	Phone   *PhoneLink   `json:"phone,omitempty"`
}

// Bus fans events out to subscribers. Publish never blocks: a subscriber
// whose buffer is full misses the event and its Dropped count grows, so a
// slow tray cannot stall a session.
type Bus struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// Subscription is one subscriber's bounded queue.
type Subscription struct {
	C       <-chan Event
	c       chan Event
	dropped atomic.Int64
	bus     *Bus
}

// Dropped is how many events this subscriber missed.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Close stops delivery; C is closed.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	if _, ok := s.bus.subs[s]; ok {
		delete(s.bus.subs, s)
		close(s.c)
	}
}

// Subscribe returns a subscription with room for buffer events.
func (b *Bus) Subscribe(buffer int) *Subscription {
	c := make(chan Event, buffer)
	s := &Subscription{C: c, c: c, bus: b}
	b.mu.Lock()
	if b.subs == nil {
		b.subs = make(map[*Subscription]struct{})
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Publish delivers e to every subscriber that has room.
func (b *Bus) Publish(e Event) {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		select {
		case s.c <- e:
		default:
			s.dropped.Add(1)
		}
	}
}
