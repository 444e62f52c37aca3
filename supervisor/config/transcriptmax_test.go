package config

import (
	"strings"
	"testing"
)

// transcript_max bounds each session's transcript file: 64 MiB unless set,
// a size with a unit or a number of bytes, and a bad one names the key.
func TestTranscriptMax(t *testing.T) {
	if cfg := mustParse(t, "/h/config.toml", ""); cfg.TranscriptMax != 64<<20 {
		t.Errorf("default transcript_max = %d, want 64 MiB", cfg.TranscriptMax)
	}
	for text, want := range map[string]int64{`transcript_max = "16MiB"`: 16 << 20, `transcript_max = "2GB"`: 2e9, `transcript_max = 1048576`: 1 << 20} {
		if cfg := mustParse(t, "/h/config.toml", text); cfg.TranscriptMax != want {
			t.Errorf("%s: TranscriptMax = %d, want %d", text, cfg.TranscriptMax, want)
		}
	}
	for _, text := range []string{`transcript_max = "lots"`, `transcript_max = "1KiB"`, `transcript_max = "5 parsecs"`, `transcript_max = true`} {
		_, err := Parse("/h/config.toml", []byte(text), Platform{})
		if err == nil || !strings.Contains(err.Error(), "transcript_max") || !strings.Contains(err.Error(), "64MiB") {
			t.Errorf("%s: err = %v, want one naming the key and how to write a size", text, err)
		}
	}
}
