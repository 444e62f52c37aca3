package station

import (
	"fmt"
	"io"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// maxTranscriptChunk bounds one answer; a client reads on from From+len.
const maxTranscriptChunk = 4 << 20

// Transcript returns a session's output from byte from on. id is a session
// id (t2.1, t2.1.review) or a task id, which picks that task's latest
// session. from < 0 counts back from the end (the last screens).
func (ss *Sessions) Transcript(id string, from int64) (supervisor.Transcript, error) {
	if !validLogName(id) {
		return supervisor.Transcript{}, supervisor.Invalidf("%q is not a session or task id; session ids look like t2.3, task ids like t2", id)
	}
	sid, err := ss.transcriptSession(id)
	if err != nil {
		return supervisor.Transcript{}, err
	}
	f, err := ss.st.files.OpenTranscript(sid)
	if err != nil {
		return supervisor.Transcript{}, fmt.Errorf("read the transcript of %s: %w", sid, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return supervisor.Transcript{}, fmt.Errorf("read the transcript of %s: %w", sid, err)
	}
	size := fi.Size()
	if from < 0 {
		from = max(0, size+from)
	}
	from = min(from, size)
	data, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, from, size-from), maxTranscriptChunk))
	if err != nil {
		return supervisor.Transcript{}, fmt.Errorf("read the transcript of %s: %w", sid, err)
	}
	s := ss.lookup(sid)
	return supervisor.Transcript{SessionID: sid, Live: s != nil && s.spec.ID == sid, Size: size, From: from, Data: data}, nil
}

// transcriptSession is the session whose transcript id names: the live
// session of a task, else the newest transcript of that task's sessions.
func (ss *Sessions) transcriptSession(id string) (string, error) {
	if f, err := ss.st.files.OpenTranscript(id); err == nil {
		_ = f.Close()
		return id, nil
	}
	if s := ss.lookup(id); s != nil {
		return s.spec.ID, nil
	}
	infos, _ := ss.st.files.TaskTranscripts(id)
	best, bestAt := "", int64(0)
	for _, fi := range infos {
		if name := strings.TrimSuffix(fi.Name(), ".log"); best == "" || fi.ModTime().UnixNano() > bestAt {
			best, bestAt = name, fi.ModTime().UnixNano()
		}
	}
	if best == "" {
		return "", supervisor.NotFoundf("no session or task %s has a transcript; session ids look like t2.3 (task t2, attempt 3); list them with \"buildstation task ls\"", id)
	}
	return best, nil
}

// validLogName keeps an id to a file name in logs/: no separators, no
// "..", nothing a glob would read as a pattern.
func validLogName(id string) bool {
	if id == "" || strings.Contains(id, "..") || len(id) > 128 {
		return false
	}
	return !strings.ContainsFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_')
	})
}
