package pgstore

import (
	"context"
	"fmt"
	neturl "net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// Stations started at the same moment on a new board: every one opens, and
// each schema step is applied once.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	url := newDB(t)
	const stations = 4
	stores := make([]*Store, stations)
	errs := make([]error, stations)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range stations {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = Open(context.Background(), url, fmt.Sprint("s", i))
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
			continue
		}
		stores[i].Close()
	}
	s := openStore(t, url, "after") // and once more, with nothing to do
	checkVersions(t, s)
	if n := queryInt(t, s, "SELECT count(*) FROM stations"); n != stations+1 {
		t.Errorf("%d stations recorded, want %d", n, stations+1)
	}
}

func checkVersions(t *testing.T, s *Store) {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), "SELECT version FROM schema_version ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for v := range migrations {
		want = append(want, v+1)
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema versions = %v, want %v", got, want)
	}
}

// A board a newer buildstation migrated is refused, and left as it is.
func TestMigrateRefusesNewer(t *testing.T) {
	t.Parallel()
	url := newDB(t)
	s := openStore(t, url, "a")
	if _, err := s.pool.Exec(context.Background(), "INSERT INTO schema_version VALUES (99, now())"); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), url, "b")
	if err == nil || !strings.Contains(err.Error(), "upgrade buildstation") {
		t.Fatalf("Open of a newer board err = %v, want one that says to upgrade", err)
	}
	if n := queryInt(t, s, "SELECT max(version) FROM schema_version"); n != 99 {
		t.Errorf("schema version %d after a refused Open, want 99", n)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		url, station, want string
	}{
		{"postgres://u@127.0.0.1/db", "", "empty station name"},
		{"postgres://u:hunter2@127.0.0.1:bad/db", "a", "not a PostgreSQL URL"},
		// Port 1 on loopback: nothing listens there.
		{"postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=5", "a", "cannot reach the PostgreSQL server"},
	} {
		_, err := Open(ctx, c.url, c.station)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%q, %q) err = %v, want one saying %q", c.url, c.station, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%q) err shows the password: %v", c.url, err)
		}
	}
}

// A station whose user may use the board's tables but not create any opens
// a board an owner migrated.
func TestOpenWithoutCreate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// Roles belong to the server, not the database: made first, so it is
	// dropped after the database and its grants are (cleanups run last
	// first).
	role := fmt.Sprintf("bst_user_%d_%d", os.Getpid(), roleSeq.Add(1))
	admin := pgtest.Admin(t)
	pgtest.Exec(t, admin, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { pgtest.Exec(t, admin, "DROP ROLE IF EXISTS "+role) })
	url := newDB(t)
	owner := openStore(t, url, "owner")
	if _, err := owner.pool.Exec(ctx, `REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO `+role+`;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO `+role); err != nil {
		t.Fatal(err)
	}
	u, _ := neturl.Parse(url)
	u.User = neturl.User(role)
	s := openStore(t, u.String(), "user")
	task := addTask(t, s, "p", "one")
	if _, ok, err := s.ClaimLeased(ctx, "p", 1, time.Minute); !ok || err != nil {
		t.Errorf("ClaimLeased as %s = %v, %v", role, ok, err)
	}
	if _, err := s.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone}); err != nil {
		t.Error(err)
	}
}

var roleSeq atomic.Int64
