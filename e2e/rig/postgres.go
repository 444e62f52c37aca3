//go:build unix

package rig

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Postgres is a PostgreSQL server of the test's own, made with the binaries
// .ci/postgres.sh names (BUILDSTATION_TEST_PG_BIN, and _USER when the tests
// run as root), so stopping it pulls no other test's board away: the chaos
// suite and the tray's outage test stop theirs under a station.
type Postgres struct {
	t    *testing.T
	bin  string
	as   string // run the server as this user ("" = as the test)
	dir  string
	data string
	Port int
}

// NewPostgres makes and starts a server, stopped and removed at cleanup.
// Without BUILDSTATION_TEST_PG_BIN the test is skipped (failed in CI).
func NewPostgres(t *testing.T) *Postgres {
	t.Helper()
	pgbin := os.Getenv("BUILDSTATION_TEST_PG_BIN")
	if pgbin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BUILDSTATION_TEST_PG_BIN is not set: CI must eval .ci/postgres.sh before the tests")
		}
		t.Skip("BUILDSTATION_TEST_PG_BIN is not set; run eval \"$(bash .ci/postgres.sh)\" for the tests that stop their own PostgreSQL")
	}
	dir, err := os.MkdirTemp("", "bs-e2e-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Postgres{t: t, bin: pgbin, as: os.Getenv("BUILDSTATION_TEST_PG_USER"), dir: dir, data: filepath.Join(dir, "data"), Port: FreePort(t)}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if c.as != "" {
		u, err := user.Lookup(c.as)
		if err != nil {
			t.Fatal(err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = c.ctl("stop", "-m", "immediate")
		os.RemoveAll(dir)
	})
	if out, err := c.cmd("initdb", "-D", c.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	c.Start()
	return c
}

func (c *Postgres) cmd(prog string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, prog)
	if c.as != "" {
		return exec.Command("runuser", append([]string{"-u", c.as, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func (c *Postgres) ctl(args ...string) error {
	args = append([]string{"-D", c.data, "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "60"}, args...)
	out, err := c.cmd("pg_ctl", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl %v: %w\n%s", args, err, out)
	}
	return nil
}

// Start starts the server.
func (c *Postgres) Start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c full_page_writes=off -c synchronous_commit=off", c.Port, c.dir)
	if err := c.ctl("start", "-o", opts); err != nil {
		c.t.Fatal(err)
	}
}

// Stop stops the server the fast way: connections are cut.
func (c *Postgres) Stop() {
	c.t.Helper()
	if err := c.ctl("stop", "-m", "fast"); err != nil {
		c.t.Fatal(err)
	}
}

// Restart stops and starts the server.
func (c *Postgres) Restart() {
	c.t.Helper()
	if err := c.ctl("restart", "-m", "fast"); err != nil {
		c.t.Fatal(err)
	}
}

// URL is the admin URL of database db, through port.
func (c *Postgres) URL(db string, port int) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable&connect_timeout=2", port, db)
}

// CreateDB makes database name.
func (c *Postgres) CreateDB(name string) {
	c.t.Helper()
	c.Exec("postgres", "CREATE DATABASE "+name)
}

// Exec runs sql on database db, straight to the server.
func (c *Postgres) Exec(db, sql string, args ...any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL(db, c.Port))
	if err != nil {
		c.t.Fatalf("connect: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		c.t.Fatalf("%s: %v", sql, err)
	}
}

// Query connects straight to the server and runs fn.
func (c *Postgres) Query(db string, fn func(ctx context.Context, conn *pgx.Conn) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL(db, c.Port))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return fn(ctx, conn)
}

// FreePort is a TCP port on loopback that nothing listened on a moment ago.
func FreePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
