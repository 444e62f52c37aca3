package stationfs

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// transcriptAppender is a transcript opened for appending that can drop
// its oldest bytes in place (supervisor.TranscriptTrimmer).
type transcriptAppender struct {
	*os.File
	size int64
}

func (a *transcriptAppender) Write(p []byte) (int, error) {
	n, err := a.File.Write(p)
	a.size += int64(n)
	return n, err
}

// lineSearch is how far into the kept part Trim looks for a line's start,
// so the transcript does not begin inside a line or an escape sequence.
const lineSearch = 64 << 10

// Trim moves the newest keep bytes (from the first line that starts among
// them) to the start of the file, after note's line, and truncates the
// rest: in place, a piece at a time, so trimming costs no more memory than
// a piece. A reader meanwhile may see a part of either version.
func (a *transcriptAppender) Trim(max, keep int64, note func(dropped int64) []byte) (int64, error) {
	if a.size <= max || keep >= a.size {
		return 0, nil
	}
	from := a.size - keep
	head := make([]byte, min(lineSearch, keep))
	if n, err := a.ReadAt(head, from); err != nil && err != io.EOF {
		return 0, fmt.Errorf("trim transcript: %w", err)
	} else if i := bytes.IndexByte(head[:n], '\n'); i >= 0 {
		from += int64(i) + 1
	}
	line := note(from)
	if int64(len(line)) >= from {
		return 0, nil // nothing worth dropping
	}
	if _, err := a.WriteAt(line, 0); err != nil {
		return 0, fmt.Errorf("trim transcript: %w", err)
	}
	// Forward copy: the destination is always before the source.
	buf := make([]byte, 1<<20)
	dst := int64(len(line))
	for src := from; src < a.size; {
		n, err := a.ReadAt(buf[:min(int64(len(buf)), a.size-src)], src)
		if n > 0 {
			if _, werr := a.WriteAt(buf[:n], dst); werr != nil {
				return 0, fmt.Errorf("trim transcript: %w", werr)
			}
			src, dst = src+int64(n), dst+int64(n)
		}
		if err != nil && err != io.EOF {
			return 0, fmt.Errorf("trim transcript: %w", err)
		}
		if n == 0 {
			break
		}
	}
	if err := a.Truncate(dst); err != nil {
		return 0, fmt.Errorf("trim transcript: %w", err)
	}
	if _, err := a.Seek(dst, io.SeekStart); err != nil {
		return 0, fmt.Errorf("trim transcript: %w", err)
	}
	a.size = dst
	return from, nil
}
