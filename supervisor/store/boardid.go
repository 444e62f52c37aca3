package store

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// BoardID is this board's short id, made once and kept in the database
// file's header (SQLite's application_id, which nothing else here uses):
// task branches carry it, so two boards on one repository never share a
// branch name, however their task ids repeat.
func (s *Store) BoardID(ctx context.Context) (string, error) {
	var id int32
	if err := s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		return "", fmt.Errorf("read the board id: %w", err)
	}
	if id == 0 {
		var b [4]byte
		for id == 0 {
			if _, err := rand.Read(b[:]); err != nil {
				return "", fmt.Errorf("make a board id: %w", err)
			}
			id = int32(binary.BigEndian.Uint32(b[:]) & 0x7fffffff)
		}
		if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", id)); err != nil {
			return "", fmt.Errorf("save the board id: %w", err)
		}
	}
	return supervisor.ShortID(uint64(id)), nil
}
