package station

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A session's transcript file stays within transcript_max however much
// its agent prints: the oldest output goes, and the file starts with a
// line that says how much went; the newest output is all there.
func TestTranscriptBoundedByTranscriptMax(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		home := t.TempDir()
		const limit = 64 << 10
		h := startWith(t, func(o *Options) {
			o.Home = home
			o.Files = testFiles(t, home, t.TempDir())
			o.Config.TranscriptMax = limit
		}, project("web", time.Hour, time.Hour))
		task := h.add("web", "chatty")
		p := h.proc()
		id := h.session(task.ID).ID
		for i := range 20_000 { // about 600 KB
			p.say(fmt.Sprintf("line %06d of a chatty agent\r\n", i))
			if i%500 == 0 {
				advance(10 * time.Millisecond)
			}
		}
		p.say("the last line\r\n")
		advance(time.Second)
		p.exit(0)
		advance(time.Second)
		h.stop()
		data, err := os.ReadFile(filepath.Join(home, "logs", id+".log"))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > limit+200 {
			t.Errorf("transcript holds %d bytes, over transcript_max %d", len(data), limit)
		}
		s := string(data)
		if !strings.Contains(s, "older bytes of output dropped") {
			t.Errorf("transcript does not say what it dropped: starts %q", s[:min(len(s), 120)])
		}
		if !strings.Contains(s, "line 019999 of a chatty agent\r\nthe last line\r\n") {
			t.Errorf("transcript lost its newest output: ends %q", s[max(0, len(s)-120):])
		}
	})
}
