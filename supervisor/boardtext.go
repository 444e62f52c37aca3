package supervisor

import (
	"strings"
	"unicode/utf8"
)

// BoardText is s as every board keeps it: each NUL and each run of invalid
// UTF-8 becomes U+FFFD. PostgreSQL refuses both in text and SQLite keeps
// them, so without one rule a title or a block reason would be kept on one
// board and fail on the other; replacing rather than refusing means an
// agent's block with any reason still blocks its task.
func BoardText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// Clean is nt with its text as a board keeps it (BoardText).
func (nt NewTask) Clean() NewTask {
	nt.Project, nt.Title, nt.Body = BoardText(nt.Project), BoardText(nt.Title), BoardText(nt.Body)
	if nt.External != nil {
		e := *nt.External
		e.Kind, e.ID, e.URL = BoardText(e.Kind), BoardText(e.ID), BoardText(e.URL)
		nt.External = &e
	}
	return nt
}

// clean is m with its text as a board keeps it (BoardText).
func (m Move) clean() Move {
	m.Reason, m.Summary, m.Note, m.Actor = BoardText(m.Reason), BoardText(m.Summary), BoardText(m.Note), BoardText(m.Actor)
	return m
}
