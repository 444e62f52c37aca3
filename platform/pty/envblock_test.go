package pty

import (
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// decode turns a block back into its entries and checks its terminator.
func decode(t *testing.T, block []uint16) []string {
	t.Helper()
	if len(block) < 2 || block[len(block)-1] != 0 || block[len(block)-2] != 0 {
		t.Fatalf("block does not end in two NULs: %v", block)
	}
	s := string(utf16.Decode(block[:len(block)-2]))
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

func TestEnvBlock(t *testing.T) {
	tests := []struct {
		name, root string
		env        []string
		want       []string
	}{
		{"sorted ignoring case, SYSTEMROOT added", `C:\Windows`,
			[]string{"Path=C:\\bin", "BUILDSTATION_URL=http://127.0.0.1:1", "appdata=C:\\a"},
			[]string{"appdata=C:\\a", "BUILDSTATION_URL=http://127.0.0.1:1", "Path=C:\\bin", `SYSTEMROOT=C:\Windows`}},
		{"last duplicate wins, ignoring case", "",
			[]string{"PATH=a", "Path=b", "SystemRoot=C:\\W"},
			[]string{"Path=b", "SystemRoot=C:\\W"}},
		{"drive current directories kept", `C:\Windows`,
			[]string{"=C:=C:\\src", "A=1", "SYSTEMROOT=D:\\W"},
			[]string{"=C:=C:\\src", "A=1", "SYSTEMROOT=D:\\W"}},
		{"values may hold = and unicode", "",
			[]string{"X=a=b", "Ü=ß"},
			[]string{"X=a=b", "Ü=ß"}},
		{"empty", "", nil, nil},
	}
	for _, tt := range tests {
		block, err := envBlock(tt.env, tt.root)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := decode(t, block); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
	}
	if _, err := envBlock([]string{"A=x\x00y"}, ""); err == nil {
		t.Error("a NUL inside a value: no error")
	}
}

func TestCPUTime(t *testing.T) {
	if got := cpuTime(15_000_000, 5_000_000); got != 2*time.Second {
		t.Errorf("cpuTime = %v; want 2s", got)
	}
}
