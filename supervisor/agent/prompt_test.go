package agent

import (
	"testing"
)

func TestTypeable(t *testing.T) {
	in := "a\r\nb\rc\nd\te\x00f\x1b[2Jg\x03h\x7fi\u0085j\xffk ünï \" % & ^ ! \x1b]52;c;aGk=\x07end"
	want := "a\nb\nc\nd\tefghij\ufffdk ünï \" % & ^ ! end"
	if got := Typeable(in); got != want {
		t.Fatalf("Typeable = %q, want %q", got, want)
	}
}
