package wiring

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// On a terminal the log is for a person: no raw time=… level=… keys, and
// colour; anywhere else it stays logfmt.
func TestTerminalLogIsHuman(t *testing.T) {
	var tty, pipe bytes.Buffer
	slog.New(terminalHandler(&tty, true, slog.LevelInfo)).Info("station ready", "url", "http://127.0.0.1:1")
	slog.New(terminalHandler(&pipe, false, slog.LevelInfo)).Info("station ready", "url", "http://127.0.0.1:1")
	if s := tty.String(); strings.Contains(s, "time=") || strings.Contains(s, "level=") || !strings.Contains(s, "\x1b[") || !strings.Contains(s, "station ready") {
		t.Errorf("terminal log %q, want a coloured human line", s)
	}
	if s := pipe.String(); !strings.HasPrefix(s, "time=") || !strings.Contains(s, `level=INFO msg="station ready" url=http://127.0.0.1:1`) {
		t.Errorf("piped log %q, want logfmt", s)
	}
}
