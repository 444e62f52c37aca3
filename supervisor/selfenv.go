package supervisor

import (
	"os"
	"path/filepath"
)

// selfEnv puts the running station's own executable in reach of every
// agent: BUILDSTATION_BIN names it, and its folder leads the session's
// PATH, so the `buildstation agent …` the prompt asks for runs this very
// binary even when it was installed somewhere the user's PATH does not
// reach (a fresh GOBIN, a `go run` build). Nothing when self is unknown.
func selfEnv(self string) []string {
	if self == "" {
		return nil
	}
	path := filepath.Dir(self)
	if old := os.Getenv("PATH"); old != "" {
		path += string(os.PathListSeparator) + old
	}
	return []string{"BUILDSTATION_BIN=" + self, "PATH=" + path}
}
