package tmux

import (
	"slices"
	"strings"
	"testing"
)

func TestKeyCommands(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"hi", "send-keys -t %1 -l -- hi"},
		{"\r", "send-keys -t %1 Enter"},
		{"hi\r", "send-keys -t %1 -l -- hi ; send-keys -t %1 Enter"},
		{"-l Enter ü", "send-keys -t %1 -l -- -l Enter ü"},
		{"\x03", "send-keys -t %1 -H 03"},
		{"\x1b[A", "send-keys -t %1 -H 1b ; send-keys -t %1 -l -- [A"},
		{"a\x7f\x00b", "send-keys -t %1 -l -- a ; send-keys -t %1 -H 7f 00 ; send-keys -t %1 -l -- b"},
		{"\xffx", "send-keys -t %1 -H ff ; send-keys -t %1 -l -- x"},
		{"hello;", "send-keys -t %1 -l -- hello ; send-keys -t %1 -H 3b"},
		{"a;b;;\r", "send-keys -t %1 -l -- a;b ; send-keys -t %1 -H 3b 3b ; send-keys -t %1 Enter"},
		{";", "send-keys -t %1 -H 3b"},
	}
	for _, tt := range tests {
		got := strings.Join(keyCommands("%1", []byte(tt.in)), " ")
		if got != tt.want {
			t.Errorf("keyCommands(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHandle(t *testing.T) {
	h := makeHandle("@12", "t3.1")
	id, name, ok := parseHandle(h)
	if !ok || id != "@12" || name != "t3.1" {
		t.Errorf("parseHandle(%q) = %q %q %v", h, id, name, ok)
	}
	for _, bad := range []string{"", "@12", "12/t3.1", "@12/"} {
		if _, _, ok := parseHandle(bad); ok {
			t.Errorf("parseHandle(%q) accepted", bad)
		}
	}
}

func TestShellName(t *testing.T) {
	for _, ok := range []string{"PATH", "_x", "a1"} {
		if !shellName(ok) {
			t.Errorf("shellName(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "1a", "BASH_FUNC_f%%", "a-b"} {
		if shellName(bad) {
			t.Errorf("shellName(%q) = true", bad)
		}
	}
	if got := quote("it's"); got != `'it'\''s'` {
		t.Errorf("quote = %s", got)
	}
	if !slices.Contains([]string{`"a\"b\$c\\d"`}, tmuxQuote(`a"b$c\d`)) {
		t.Errorf("tmuxQuote = %s", tmuxQuote(`a"b$c\d`))
	}
}
