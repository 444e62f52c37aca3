package boardsql

import (
	"context"
	"fmt"
)

// Migrate takes the schema in tx from the version its table schema_version
// records to the newest of steps (steps[i] makes version i+1), recording
// each step as it goes; the store commits tx, so a failed step leaves the
// database as it was. A database from a newer station is refused rather
// than written by code that does not know its schema.
func Migrate(ctx context.Context, d Dialect, tx Conn, steps []string) error {
	var have int
	if err := tx.QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&have); err != nil {
		return fmt.Errorf("migrate: read version: %w", err)
	}
	if have > len(steps) {
		return fmt.Errorf("board schema version %d is newer than this buildstation knows (%d): upgrade buildstation", have, len(steps))
	}
	for v := have + 1; v <= len(steps); v++ {
		if err := tx.Exec(ctx, steps[v-1]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v, err)
		}
		now, args := d.Now([]any{v})
		if err := tx.Exec(ctx, "INSERT INTO schema_version (version, applied_at) VALUES ($1, "+now+")", args...); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v, err)
		}
	}
	return nil
}
