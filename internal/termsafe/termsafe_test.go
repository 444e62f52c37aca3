package termsafe

import "testing"

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain title", "plain title"},
		{"naïve — ünïcode ✓", "naïve — ünïcode ✓"},
		{"x\x1b]52;c;cm0gLXJmIH4K\x07y", "xy"},     // OSC 52: set the clipboard
		{"a\x1b]0;pwned\x1b\\b", "ab"},             // OSC 0 with ST
		{"red\x1b[31m!\x1b[0m", "red!"},            // CSI SGR
		{"over\x1b[2K\x1b[1Awrite", "overwrite"},   // erase line, cursor up
		{"dcs\x1bP1$qm\x1b\\", "dcs"},              // DCS
		{"c1\u009b31mcsi\u009d0;t\u0007", "c1csi"}, // 8-bit CSI and OSC
		{"line\r\nbreak\ttab\x00nul\x7fdel", "line  break tab nul del"},
		{"cut\x1b]52;c;unterminated", "cut"},
		{"lone esc\x1b", "lone esc"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Lines("one\n\ttwo\x1b]0;t\x07\r"); got != "one\n\ttwo " {
		t.Errorf("Lines kept %q", got)
	}
}
