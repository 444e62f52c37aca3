package store

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// BoardNumber is made once and kept in the database file's header (SQLite's
// application_id, which nothing else here uses), so the board keeps its id
// however the file is copied or moved.
func (b sqlBoard) BoardNumber(ctx context.Context) (uint64, error) {
	var id int32
	if err := b.s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		return 0, fmt.Errorf("read the board id: %w", err)
	}
	if id == 0 {
		var buf [4]byte
		for id == 0 {
			if _, err := rand.Read(buf[:]); err != nil {
				return 0, fmt.Errorf("make a board id: %w", err)
			}
			id = int32(binary.BigEndian.Uint32(buf[:]) & 0x7fffffff)
		}
		if _, err := b.s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", id)); err != nil {
			return 0, fmt.Errorf("save the board id: %w", err)
		}
	}
	return uint64(id), nil
}
