package proctree

import (
	"reflect"
	"testing"
)

func TestParsePS(t *testing.T) {
	out := []byte(`    1     0     1 Ss   /sbin/launchd
  512     1   512 S    /Applications/My App.app/Contents/MacOS/My App
  600   512   512 Z    (sleep)
bogus line
  700   512
`)
	want := map[int]Proc{
		1:   {PID: 1, PPID: 0, PGID: 1, State: 'S', Comm: "/sbin/launchd"},
		512: {PID: 512, PPID: 1, PGID: 512, State: 'S', Comm: "/Applications/My App.app/Contents/MacOS/My App"},
		600: {PID: 600, PPID: 512, PGID: 512, State: 'Z', Comm: "(sleep)"},
	}
	if got := parsePS(out); !reflect.DeepEqual(got, want) {
		t.Errorf("parsePS =\n%+v\nwant\n%+v", got, want)
	}
}
