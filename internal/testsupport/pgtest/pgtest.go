package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the test server's admin URL.
const Env = "BUILDSTATION_TEST_PG"

var seq atomic.Int64

// NewDB creates an empty database for t, dropped at cleanup, and returns
// its URL; poolMax > 0 bounds the pool of whoever opens it (pool_max_conns),
// so parallel tests stay under the server's max_connections. Without a
// server it skips or fails as Admin does.
func NewDB(t testing.TB, poolMax int) string {
	t.Helper()
	admin := Admin(t)
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	// The pid tells apart the test binaries sharing the server.
	name := fmt.Sprintf("bstest_%d_%d", os.Getpid(), seq.Add(1))
	Exec(t, admin, "CREATE DATABASE "+name+" TEMPLATE template0")
	t.Cleanup(func() { Exec(t, admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	u.Path = "/" + name
	if poolMax > 0 {
		q := u.Query()
		q.Set("pool_max_conns", strconv.Itoa(poolMax))
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Admin is the test server's admin URL. Without a server the test skips,
// except in CI (CI=true), where a missing server is a broken setup, not a
// reason to pass.
func Admin(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(Env)
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run .ci/postgres.sh before the tests", Env)
		}
		t.Skipf("SKIP: set %s (make pg)", Env)
	}
	return admin
}

// Exec runs one statement as the server's admin (admin is Admin's URL).
func Exec(t testing.TB, admin, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
