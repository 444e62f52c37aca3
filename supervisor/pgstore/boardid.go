package pgstore

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/buildstation/buildstation/supervisor"
)

// BoardID is this board's short id: the PostgreSQL cluster's system
// identifier and the database's oid, both fixed for the database's life and
// shared by every station on it, so a task's branch has the same name on
// each of them.
func (s *Store) BoardID(ctx context.Context) (string, error) {
	var ident string
	err := s.pool.QueryRow(ctx, `SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || oid::text
		FROM pg_database WHERE datname = current_database()`).Scan(&ident)
	if err != nil {
		return "", fmt.Errorf("read the board id: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(ident))
	return supervisor.ShortID(h.Sum64() & 0x7fffffff), nil
}
