package config

import "fmt"

// Error is one problem in config.toml. It carries the file, line and key so
// that a user can go straight to the spot, and a fix so they know what to
// write there; the station refuses to start on it rather than half-apply.
type Error struct {
	Path    string // the config file
	Line    int    // 1-based line the key (or its table) is on
	Key     string // e.g. "projects[1].idle_window"
	Problem string // what is wrong
	Fix     string // what to do about it
	Err     error  // the underlying cause, if any
}

// Error formats as "<path>:<line>: <key>: <problem>; <fix>", the shape
// editors and terminals turn into a jump-to-line link.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s; %s", e.Path, e.Line, e.Key, e.Problem, e.Fix)
}

// Unwrap exposes the cause, such as the fs error behind a missing path.
func (e *Error) Unwrap() error { return e.Err }
