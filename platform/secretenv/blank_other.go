//go:build !linux

package secretenv

// blankStartEnv does nothing here: macOS and Windows keep a process's
// initial environment where this process cannot reach it by a file, and
// another process of the same user may still read it there (ps eww on
// macOS, the process's memory on Windows): docs/security.md says so.
func blankStartEnv([]string) {}
