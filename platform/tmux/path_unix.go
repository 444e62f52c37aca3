//go:build unix

package tmux

import (
	"os"
	"strings"
)

// envValue returns key's value in env, the last one winning; with no such
// key it falls back to the station's own environment.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(env[i], "=")
		if ok && k == key {
			return v
		}
	}
	return os.Getenv(key)
}
