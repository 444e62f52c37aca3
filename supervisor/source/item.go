package source

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Item is one issue as a tracker reports it.
type Item struct {
	Ref   supervisor.External
	Title string
	Body  string
	// Matches: open, labelled and (Linear) in the state tasks are taken
	// from: an issue that would be imported now.
	Matches bool
	// Closed: closed (GitHub), completed or cancelled (Linear) upstream.
	Closed bool
	// Unlabelled: it lacks the source's label (why it does not match).
	Unlabelled bool
	State      string // as people read it: "open", "In Review"
	UpdatedAt  time.Time
	// Comments is how many comments the issue has, -1 when the tracker
	// cannot say (Linear): an issue with none is not asked for them.
	Comments int
}

// Tracker is one source's remote: a GitHub repository or a Linear team.
// Its errors are *APIError where the service answered, and wrap
// supervisor.ErrUnreachable where it did not.
type Tracker interface {
	// Poll returns what changed since the last poll. full says items is
	// every matching issue (GitHub's list), so a known issue missing from
	// it was closed or unlabelled; otherwise items are the issues updated
	// since (Linear's updatedAt filter). A poll that found nothing new
	// (a 304) returns no items and full false: it cost no rate limit.
	Poll(ctx context.Context) (items []Item, full bool, err error)
	// Item reads one issue afresh.
	Item(ctx context.Context, ref supervisor.External) (Item, error)
	// Send performs one write-back. A replayed write (w.Tried) first
	// checks whether it landed already, so none is made twice.
	Send(ctx context.Context, w Write) (Sent, error)
	// Activity is the newest change on ref's issue (a comment, a state, a
	// commit on its pull request) after since, other than the station's
	// own writes; ok is false when there was none.
	Activity(ctx context.Context, ref supervisor.External, since time.Time) (a Activity, ok bool, err error)
	// Comments are the comments on ref's issue after since by people who
	// can act on it (as Activity counts them), oldest first, never the
	// station's own.
	Comments(ctx context.Context, ref supervisor.External, since time.Time) ([]Comment, error)
}

// Comment is one comment on an issue, for a running agent.
type Comment struct {
	At     time.Time
	Author string
	Body   string
}

// Activity is a change on an issue, for the watchdog's evidence.
type Activity struct {
	At     time.Time
	Detail string // "Linear ENG-142 moved to In Review"
}

// Sent is what a write made upstream.
type Sent struct {
	URL string // the comment's or the pull request's
	// Note says how the write was made differently from what was asked
	// (a team without the state: a label instead), for `source ls`.
	Note string
}

// Owns reports whether ref is an issue of s: a task's issue is written to
// and polled through the source it came from.
func Owns(s config.Source, ref *supervisor.External) bool {
	if ref.IsZero() || ref.Kind != s.Kind {
		return false
	}
	if s.Kind == config.SourceLinear {
		return strings.HasPrefix(ref.ID, s.Team+"-")
	}
	return strings.HasPrefix(ref.ID, s.Repo+"#")
}

// GitHubID is the External id of issue n of repo: "acme/web#12".
func GitHubID(repo string, n int) string { return repo + "#" + strconv.Itoa(n) }

// GitHubNumber is the issue number in a GitHub External id.
func GitHubNumber(id string) (int, bool) {
	_, num, ok := strings.Cut(id, "#")
	n, err := strconv.Atoi(num)
	return n, ok && err == nil && n > 0
}
