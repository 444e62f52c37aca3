package supervisor

import (
	"fmt"
	"strings"
	"time"
)

// DefaultSetupTimeout bounds a project's setup when setup_timeout is not
// set: long enough for a cold `npm ci`, short enough that a hung install
// does not hold a slot for an hour.
const DefaultSetupTimeout = 10 * time.Minute

// SetupRun is what a worktree's setup did: the files .worktreeinclude
// brought in, and the project's setup command with how long it took. A
// worktree's first run is recorded with it, so `task show` and the card
// say how long the task waited before its agent started.
type SetupRun struct {
	// Copied are the ignored files and folders .worktreeinclude brought
	// from the project's folder (folders end in "/"); How says how
	// ("cloned": copy-on-write, "copied": byte by byte, or both).
	Copied []string `json:"copied,omitempty"`
	How    string   `json:"how,omitempty"`
	// Command is the project's setup; "" when it has none.
	Command  string        `json:"command,omitempty"`
	Took     time.Duration `json:"took_ns"`
	OK       bool          `json:"ok"`
	TimedOut bool          `json:"timed_out,omitempty"`
	At       time.Time     `json:"at,omitzero"`
	// Output is the end of what the setup printed.
	Output string `json:"output,omitempty"`
}

// Ran reports whether anything was done: files copied or a command run.
func (r SetupRun) Ran() bool { return r.Command != "" || len(r.Copied) > 0 }

// Header is the line a transcript or a gate's log shows above the setup's
// output.
func (r SetupRun) Header() string {
	var parts []string
	if len(r.Copied) > 0 {
		parts = append(parts, fmt.Sprintf(".worktreeinclude: %d %s (%s)", len(r.Copied), plural(len(r.Copied), "entry", "entries"), r.How))
	}
	if r.Command != "" {
		verdict := "ok"
		switch {
		case r.TimedOut:
			verdict = "timed out"
		case !r.OK:
			verdict = "failed"
		}
		parts = append(parts, fmt.Sprintf("setup `%s`: %s after %s", r.Command, verdict, r.Took.Round(100*time.Millisecond)))
	}
	return "── buildstation: " + strings.Join(parts, "; ") + " ──"
}

// Log is the run as a transcript or a gate's log shows it: the header,
// what was brought in, and the end of the setup's output.
func (r SetupRun) Log() string {
	var b strings.Builder
	b.WriteString(r.Header() + "\n")
	for _, c := range r.Copied {
		b.WriteString("  " + c + "\n")
	}
	if r.Output != "" {
		b.WriteString(strings.TrimRight(r.Output, "\n") + "\n")
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// SetupError is a setup that failed or timed out: the worktree is there,
// but not ready for an agent. It is the project's setup at fault, not the
// agent, so the task it blocks does not count toward the project's
// circuit breaker.
type SetupError struct {
	Run SetupRun
}

func (e *SetupError) Error() string {
	what := "failed"
	if e.Run.TimedOut {
		what = "timed out"
	}
	msg := fmt.Sprintf("setup failed, not the agent: `%s` %s after %s", e.Run.Command, what, e.Run.Took.Round(100*time.Millisecond))
	if last := LastLines(e.Run.Output, 5); last != "" {
		msg += "; last lines:\n" + last
	}
	return msg
}

// LastLines is the last n non-empty lines of out.
func LastLines(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, " \t\r\n"), "\n")
	var keep []string
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimRight(lines[i], " \t\r"); l != "" {
			keep = append([]string{l}, keep...)
		}
	}
	return strings.Join(keep, "\n")
}
