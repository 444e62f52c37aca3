package station

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// filesError is a failure to write a session's own files (prompt,
// transcript): the disk, not the agent's command, needs fixing.
type filesError struct {
	dir string
	err error
}

// sessionFilesError says that err, from Files, kept a session's files
// from being written; the folder is the one its path names, if it names
// one.
func sessionFilesError(err error) error {
	e := &filesError{err: err}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		e.dir = filepath.Dir(pe.Path)
	}
	return e
}

func (e *filesError) Error() string { return "write session files in " + e.dir + ": " + e.err.Error() }

func (e *filesError) Unwrap() error { return e.err }
