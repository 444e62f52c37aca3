package supervisor

import "time"

// SessionKind is what a session is for. It is the one place that knows
// what follows from that: the idle window, the state a healthy session
// rests in and the column its task stands in while it runs.
type SessionKind string

const (
	KindWork   SessionKind = "work"   // codes on a todo task
	KindReview SessionKind = "review" // judges finished work, changing nothing
)

// Window is the idle window a session of this kind gets, of a project's
// idle and review windows: a review reads quietly, so it has its own,
// longer one (review_idle_window).
func (k SessionKind) Window(idle, review time.Duration) time.Duration {
	if k == KindReview {
		return review
	}
	return idle
}

// Base is the state a live session of this kind returns to when alive:
// reviewing is counted apart from working, since it is quieter than coding
// and must not be read as a stall.
func (k SessionKind) Base() SessionState {
	if k == KindReview {
		return SessReviewing
	}
	return SessWorking
}

// TaskState is the column a session of this kind finds its task in while
// it runs, and the only one it may move the task out of.
func (k SessionKind) TaskState() TaskState {
	if k == KindReview {
		return TaskReview
	}
	return TaskWorking
}
