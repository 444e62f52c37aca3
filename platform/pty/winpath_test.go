package pty

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// files is a fake Windows disk: a path is a file when it is in the set,
// compared ignoring case as NTFS does.
type files map[string]bool

func (f files) isFile(p string) bool { return f[strings.ToLower(p)] }

func TestWinLookPath(t *testing.T) {
	disk := files{
		`c:\users\me\appdata\roaming\npm\claude.cmd`: true,
		`c:\users\me\appdata\roaming\npm\claude`:     true, // npm's sh shim, not runnable here
		`c:\tools\aider.exe`:                         true,
		`c:\tools\aider.cmd`:                         true,
		`c:\program files\git\cmd\git.exe`:           true,
		`c:\semi;colon\x.exe`:                        true,
		`c:\work\evil.exe`:                           true,
		`c:\abs\run.bat`:                             true,
	}
	const path = `C:\Users\me\AppData\Roaming\npm;work;C:\tools\;"C:\semi;colon";C:\Program Files\Git\cmd`
	tests := []struct {
		file, pathext, want string
	}{
		{"claude", "", `C:\Users\me\AppData\Roaming\npm\claude.cmd`},
		{"aider", ".COM;.EXE;.BAT;.CMD", `C:\tools\aider.exe`},
		{"aider", ".CMD;.EXE", `C:\tools\aider.cmd`},
		{"aider.cmd", "", `C:\tools\aider.cmd`},
		{"git", ".EXE", `C:\Program Files\Git\cmd\git.exe`},
		{"x", "", `C:\semi;colon\x.exe`},
		{`C:\abs\run`, "", `C:\abs\run.bat`},
		{`C:\abs\run.bat`, "", `C:\abs\run.bat`},
		{"evil", "", ""},                                               // only on the relative PATH entry "work"
		{"claude", ";;", `C:\Users\me\AppData\Roaming\npm\claude.cmd`}, // unusable PATHEXT: defaults
		{"missing", "", ""},
	}
	for _, tt := range tests {
		got, err := winLookPath(tt.file, path, tt.pathext, disk.isFile)
		if tt.want == "" {
			if !errors.Is(err, exec.ErrNotFound) {
				t.Errorf("winLookPath(%q) = %q, %v; want ErrNotFound", tt.file, got, err)
			}
			continue
		}
		if err != nil || !strings.EqualFold(got, tt.want) {
			t.Errorf("winLookPath(%q, PATHEXT=%q) = %q, %v; want %q", tt.file, tt.pathext, got, err, tt.want)
		}
	}
}

func TestWinPathHelpers(t *testing.T) {
	for p, want := range map[string]bool{
		`C:\x`: true, `c:/x`: true, `\\server\share\x`: true, `C:x`: false, `\x`: false, `work`: false, ``: false,
	} {
		if got := winIsAbs(p); got != want {
			t.Errorf("winIsAbs(%q) = %v; want %v", p, got, want)
		}
	}
	for p, want := range map[string]string{
		`C:\a.b\c`: "", `C:\a\c.CMD`: ".CMD", `c.tar.gz`: ".gz", `C:.x`: ".x",
	} {
		if got := winExt(p); got != want {
			t.Errorf("winExt(%q) = %q; want %q", p, got, want)
		}
	}
	if got := winJoin(`C:\tools\`, "a"); got != `C:\tools\a` {
		t.Errorf("winJoin = %q", got)
	}
	if got := strings.Join(winSplitList(`a;"b;c";;d`), "|"); got != "a|b;c||d" {
		t.Errorf("winSplitList = %q", got)
	}
}
