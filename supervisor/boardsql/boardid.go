package boardsql

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
)

// idBits keeps 31 bits of a board's number: all a positive int32 holds
// (SQLite's application_id), and as many as supervisor.ShortID's six
// letters write, so both boards name boards from one space.
const idBits = 0x7fffffff

// BoardID is this board's short id: task branches carry it, so two boards
// on one repository never share a branch name, however their task ids
// repeat. It is the number the store keeps for the board (DB.BoardNumber),
// the same for the board's life and for every station on it.
func (b Board[Tx]) BoardID(ctx context.Context) (string, error) {
	n, err := b.db.BoardNumber(ctx)
	if err != nil {
		return "", err
	}
	return supervisor.ShortID(n & idBits), nil
}
