package screentext

import (
	"strings"
	"testing"
)

// What a person read: a progress line's redraws resolved to their last
// state, colours gone, every line that scrolled off printed once in order,
// a wide character counted once, and blank lines at the end trimmed.
func TestRendersWhatTheScreenShowed(t *testing.T) {
	var out strings.Builder
	r := New(&out, 20, 3)
	defer r.Close()
	in := "\x1b[32mstep 1\x1b[0m\r\nbuild 10%\rbuild 100%\r\n世界\r\nline 4\r\nline 5\r\n"
	for _, b := range []byte(in) { // byte by byte: no piece boundary may lose a line
		if err := r.Write([]byte{b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	if want := "step 1\nbuild 100%\n世界\nline 4\nline 5\n"; out.String() != want {
		t.Errorf("rendered %q, want %q", out.String(), want)
	}
}
