package station

import (
	"path/filepath"
	"strings"
)

// selfEnv puts the running station's own executable in reach of every
// agent: BUILDSTATION_BIN names it, and its folder leads the session's
// PATH, so the `buildstation agent …` the prompt asks for runs this very
// binary even when it was installed somewhere the user's PATH does not
// reach (a fresh GOBIN, a `go run` build). Nothing when self is unknown.
// environ is the station's environment, where PATH is looked up.
func selfEnv(self string, environ []string) []string {
	if self == "" {
		return nil
	}
	path := filepath.Dir(self)
	if old := lookupPath(environ); old != "" {
		path += string(filepath.ListSeparator) + old
	}
	return []string{"BUILDSTATION_BIN=" + self, "PATH=" + path}
}

// lookupPath is PATH's value in environ as os.Getenv("PATH") finds it:
// the first entry named PATH, on Windows (the OS whose separator is a
// backslash) in any case, since its names are case-insensitive and it
// spells this one Path.
func lookupPath(environ []string) string {
	fold := filepath.Separator == '\\'
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "PATH" || fold && strings.EqualFold(k, "PATH")) {
			return v
		}
	}
	return ""
}
