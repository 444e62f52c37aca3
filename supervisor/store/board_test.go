package store

import (
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardtest"
)

func TestBoard(t *testing.T) {
	boardtest.Run(t, func(t *testing.T) supervisor.Board { return openTemp(t) })
}

// openTemp opens a fresh board in t's temp dir, closed at cleanup.
func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "station.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}
