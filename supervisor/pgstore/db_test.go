package pgstore

import (
	"context"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
)

// The tests need a real PostgreSQL: BUILDSTATION_TEST_PG (`eval "$(bash
// .ci/postgres.sh)"` starts a throwaway server and sets it). Each test gets
// a database of its own (internal/testsupport/pgtest), so tests run in parallel and
// notifications of one never reach another.

// newDB creates an empty database for t, dropped at cleanup, and returns
// its URL. A bound per store keeps parallel tests under the server's
// max_connections; racing goroutines still get several connections.
func newDB(t testing.TB) string { return pgtest.NewDB(t, 8) }

// openStore opens the board at url as station, closed at cleanup.
func openStore(t testing.TB, url, station string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, station)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// query runs a one-value query on the store's database.
func queryInt(t testing.TB, s *Store, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := s.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}
