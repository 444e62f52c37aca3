package service

import "testing"

func TestParseDeepLink(t *testing.T) {
	tests := []struct {
		link string
		id   string
		ok   bool
	}{
		{"buildstation://session/3f2a9c", "3f2a9c", true},
		{"buildstation://session/3f2a9c/", "3f2a9c", true},
		{"buildstation://session/t3.1", "t3.1", true},
		{"buildstation://session/t3.2.review", "t3.2.review", true},
		{"buildstation://session/..", "", false},
		{"buildstation://session/.t3", "", false},
		{"BuildStation://Session/ab-C_9", "ab-C_9", true},
		{"buildstation:session/abc", "abc", true},
		{" buildstation://session/abc\n", "abc", true}, // as a shell or a desktop file may pass it
		{"buildstation://", "", true},
		{"buildstation://dashboard", "", true},
		{"buildstation:///", "", true},
		{"buildstation://session/", "", false},
		{"buildstation://session", "", false},
		{"buildstation://session/a/b", "", false},
		{"buildstation://session/a%2Fb", "", false},
		{"buildstation://session/..", "", false},
		{"buildstation://session/a;rm -rf", "", false},
		{"buildstation://task/abc", "", false},
		{"buildstation://user@session/abc", "", false},
		{"buildstation://session:80/abc", "", false},
		{"http://session/abc", "", false},
		{"3f2a9c", "", false},
		{"", "", false},
		{"buildstation://session/" + string(make([]byte, 65)), "", false},
	}
	for _, tt := range tests {
		id, ok := ParseDeepLink(tt.link)
		if id != tt.id || ok != tt.ok {
			t.Errorf("ParseDeepLink(%q) = %q, %v; want %q, %v", tt.link, id, ok, tt.id, tt.ok)
		}
	}
}
