package notify

import "testing"

func TestParseURL(t *testing.T) {
	for in, want := range map[string]struct {
		id string
		ok bool
	}{
		SessionURL("t3.1"):                 {"t3.1", true},
		"buildstation://session/t3.1/":     {"t3.1", true},
		"buildstation://dashboard":         {"", true},
		"t3.1":                             {"", false},
		"https://example.com/session/t3.1": {"", false},
	} {
		id, ok := ParseURL(in)
		if id != want.id || ok != want.ok {
			t.Errorf("ParseURL(%q) = %q, %v; want %q, %v", in, id, ok, want.id, want.ok)
		}
	}
}
