package supervisor

import (
	"io"
	"io/fs"
)

// Files is the station's port to its files, so the engine does no OS I/O
// itself; platform/stationfs keeps them on disk where docs/contract.md
// ("Files") and docs/security.md say, with the modes they give. It speaks only
// the standard library's types, so an implementation needs nothing of the
// engine.
//
// The home's logs folder holds each session's transcript (<id>.log) and
// the record copy of its prompt (<id>.prompt.md). Each session also has a
// private folder outside the home, for the files its agent is given (the
// prompt file, a profile's MCP and settings files): agents run as the
// station's user, and a path into the home would lead one straight to the
// station token.
type Files interface {
	// AppendTranscript opens session id's transcript for appending,
	// creating it (0600) if need be.
	AppendTranscript(id string) (io.WriteCloser, error)
	// OpenTranscript opens session id's transcript for reading; an error
	// that is fs.ErrNotExist when it has none.
	OpenTranscript(id string) (TranscriptFile, error)
	// TaskTranscripts are the transcripts of task id's sessions
	// (<task>.<n>[.<kind>].log): their names and modification times.
	TaskTranscripts(taskID string) ([]fs.FileInfo, error)
	// WritePromptRecord writes the home's record copy of session id's
	// prompt (0600).
	WritePromptRecord(id, prompt string) error

	// MakeSessionDir makes a fresh private folder (0700) for session id,
	// removing any left from before, and returns its path.
	MakeSessionDir(id string) (string, error)
	// WriteSessionFile writes name (0600) into session id's folder and
	// returns its path.
	WriteSessionFile(id, name string, data []byte) (string, error)
	// SessionFile is the path of name in session id's folder, and whether
	// it exists (the guard's note).
	SessionFile(id, name string) (path string, exists bool)
	// DropSessionDir removes session id's folder.
	DropSessionDir(id string) error
	// SessionDirs are the ids of the sessions that have a folder.
	SessionDirs() ([]string, error)
	// Tidy removes what holds the session folders once none is left.
	Tidy()

	// ReadConfig and WriteConfig read and replace config.toml (path); a
	// replacement is atomic and keeps the file's mode.
	ReadConfig(path string) ([]byte, error)
	WriteConfig(path string, data []byte) error
	// Missing reports whether the folder path is not on this machine.
	Missing(path string) bool
}

// TranscriptTrimmer is a transcript being written that can drop its
// oldest bytes in place, so that a session's file stays within
// transcript_max however long the agent talks. AppendTranscript's writer
// implements it.
type TranscriptTrimmer interface {
	// Trim, when the file holds more than max bytes, keeps about the
	// newest keep (from the first line that starts among them) after the
	// line note(dropped) returns, and reports the bytes dropped; 0 when
	// the file was within max.
	Trim(max, keep int64, note func(dropped int64) []byte) (dropped int64, err error)
}

// TranscriptFile is a transcript opened for reading. An alias of an
// unnamed interface, so an implementation may spell the same interface out
// without importing this package.
type TranscriptFile = interface {
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}
