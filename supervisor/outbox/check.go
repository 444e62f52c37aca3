package outbox

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
)

// quickCheck reads every page of the outbox once (milliseconds: it holds a
// few rows) and refuses a damaged file with the steps that recover it.
func quickCheck(db *sql.DB, path string) error {
	var found []string
	rows, err := db.Query("PRAGMA quick_check")
	if err == nil {
		for rows.Next() {
			var line string
			if err = rows.Scan(&line); err != nil {
				break
			}
			if line != "ok" {
				found = append(found, line)
			}
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
	}
	switch {
	case err != nil && strings.Contains(err.Error(), "malformed"), err != nil && strings.Contains(err.Error(), "not a database"):
		return damaged(path, firstLine(err.Error()))
	case err != nil:
		return fmt.Errorf("check outbox %s: %w", path, err)
	case len(found) > 0:
		return damaged(path, firstLine(found[0]))
	}
	return nil
}

// damaged is the refusal of a damaged outbox, in one sentence that says
// how to keep what it holds: writes owed to the shared board and the
// tokens of sessions that may outlive the station.
func damaged(path, detail string) error {
	recovered := strings.TrimSuffix(path, filepath.Ext(path)) + "-recovered" + filepath.Ext(path)
	return fmt.Errorf("outbox %s is damaged (%s): stop the station, keep this file, recover its rows into a new one "+
		"with `sqlite3 %s .recover | sqlite3 %s`, then move the damaged file aside (with its -wal and -shm files) "+
		"and the recovered one into its place, and start the station again", path, detail, quote(path), quote(recovered))
}

// quote quotes s for a POSIX shell when it needs it, so the recovery
// command can be pasted as it is.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:=@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
