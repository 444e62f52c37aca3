package rig

import (
	"errors"
	"os"
	"testing"
	"time"
)

// WaitGone waits up to d for path to be removed (a session's own folder,
// once the session ended), or fails the test.
func WaitGone(t *testing.T, path string, d time.Duration) {
	t.Helper()
	Eventually(t, d, func() error {
		_, err := os.Stat(path)
		switch {
		case os.IsNotExist(err):
			return nil
		case err != nil:
			return err
		}
		return errors.New("it is still there")
	}, path+" removed")
}
