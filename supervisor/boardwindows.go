package supervisor

import (
	"context"
	"time"
)

// BoardWindows are a shared board's watchdog windows for a project, set
// with "buildstation board cap" (0: the board sets none). They are the
// team's floor: every station waits at least this long before it nudges
// (Idle; ReviewIdle for a review) and, after the nudge, before it blocks
// (Block). A station's config.toml may lengthen a window, never shorten it:
// a window too short kills healthy builds, the costlier mistake, and one
// station's hasty setting must not do that to a task the team shares.
type BoardWindows struct {
	Idle, Block, ReviewIdle time.Duration
}

// WindowBoard is a shared board that keeps watchdog windows per project
// (pgstore). Reading them is cheap; the station reads them at every beat
// and before each session it starts.
type WindowBoard interface {
	ProjectWindows(ctx context.Context) (map[string]BoardWindows, error)
}
