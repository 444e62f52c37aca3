package pgstore

import (
	"context"
	"fmt"
	"hash/fnv"
)

// BoardNumber hashes the PostgreSQL cluster's system identifier and the
// database's oid, both fixed for the database's life and shared by every
// station on it, so a task's branch has the same name on each of them.
func (b pgBoard) BoardNumber(ctx context.Context) (uint64, error) {
	var ident string
	err := b.s.pool.QueryRow(ctx, `SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || oid::text
		FROM pg_database WHERE datname = current_database()`).Scan(&ident)
	if err != nil {
		return 0, fmt.Errorf("read the board id: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(ident))
	return h.Sum64(), nil
}
