package rig

import (
	"os"
	"testing"
	"time"
)

// WaitGone waits up to d for path to be removed (a session's own folder,
// once the session ended), or fails the test.
func WaitGone(t *testing.T, path string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		_, err := os.Stat(path)
		if os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still there after %s (err %v)", path, d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
