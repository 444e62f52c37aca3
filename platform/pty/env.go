package pty

import (
	"os"
	"strings"
)

// envValue returns key's value in env, the last one winning as exec.Cmd
// dedups it; Windows keys ignore case ("Path"). With no such key in env it
// falls back to the station's own environment, which is what the child sees
// too when env is nil.
func envValue(env []string, key string, foldCase bool) string {
	for i := len(env) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(env[i], "=")
		if ok && (k == key || foldCase && strings.EqualFold(k, key)) {
			return v
		}
	}
	return os.Getenv(key)
}
