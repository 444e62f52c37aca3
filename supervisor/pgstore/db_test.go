package pgstore

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The tests need a real PostgreSQL: BUILDSTATION_TEST_PG is the URL of a
// database on it whose user may create databases; `eval "$(bash
// .ci/postgres.sh)"` starts a throwaway server and sets it. Each test gets
// a database of its own, so tests run in parallel and notifications of one
// never reach another.

const testPGEnv = "BUILDSTATION_TEST_PG"

// pgSkip is what a run without a server says: `make pg` starts one and
// prints the line that sets it; `make check` does both itself.
const pgSkip = "SKIP: set BUILDSTATION_TEST_PG (make pg)"

var dbSeq atomic.Int64

// adminURL is the test server's URL; without one a test skips, except in CI
// (CI=true), where a missing server is a broken setup, not a reason to pass.
func adminURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(testPGEnv)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run .ci/postgres.sh before the tests", testPGEnv)
		}
		t.Skip(pgSkip)
	}
	return u
}

// newDB creates an empty database for t, dropped at cleanup, and returns
// its URL.
func newDB(t testing.TB) string {
	t.Helper()
	admin := adminURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := fmt.Sprintf("bst_%d_%d", os.Getpid(), dbSeq.Add(1))
	adminExec(t, ctx, admin, "CREATE DATABASE "+name+" TEMPLATE template0")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		adminExec(t, ctx, admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", testPGEnv, err)
	}
	u.Path = "/" + name
	q := u.Query()
	// A bound per store keeps parallel tests under the server's
	// max_connections; racing goroutines still get several connections.
	q.Set("pool_max_conns", "8")
	u.RawQuery = q.Encode()
	return u.String()
}

func adminExec(t testing.TB, ctx context.Context, admin, sql string) {
	t.Helper()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

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
