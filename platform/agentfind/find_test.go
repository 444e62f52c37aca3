package agentfind

import (
	"io/fs"
	"strings"
	"testing"
	"time"
)

// fakeFS is a file tree keyed by full paths of any OS.
type fakeFS map[string]string

func (f fakeFS) Stat(p string) (fs.FileInfo, error) {
	d, ok := f[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return fileInfo{name: p, size: int64(len(d))}, nil
}

func (f fakeFS) Head(p string, n int) ([]byte, error) {
	d, ok := f[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(d[:min(n, len(d))]), nil
}

type fileInfo struct {
	name string
	size int64
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return 0o755 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

const (
	pe        = "MZ\x90\x00 a PE"
	elfBin    = "\x7fELF\x02\x01\x01"
	machoBin  = "\xcf\xfa\xed\xfe\x07\x00\x00\x01"
	script    = "#!/usr/bin/env node\nrequire('../cli.js')\n"
	cmdShim   = "@ECHO off\r\n\"%dp0%\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe\"   %*\r\n"
	stub      = "This file is a placeholder. The real binary is installed by the postinstall script.\n"
	winHome   = `C:\Users\ada`
	winRoam   = `C:\Users\ada\AppData\Roaming`
	macHome   = "/Users/ada"
	linuxHome = "/home/ada"
)

// Where each OS's installers put an agent, and which one Find picks: the
// native installer first, then npm's prefix, then Homebrew; a placeholder
// is picked with the sentence that says how to finish the install.
func TestFind(t *testing.T) {
	winEnv := Env{GOOS: "windows", Home: winHome, AppData: winRoam}
	macEnv := Env{GOOS: "darwin", Home: macHome}
	linuxEnv := Env{GOOS: "linux", Home: linuxHome}
	for _, tt := range []struct {
		name    string
		env     Env
		files   fakeFS
		agent   string
		want    string // "" = not found
		source  string
		problem string // a part of the Problem; "" = none
	}{
		{"windows native installer", winEnv, fakeFS{winHome + `\.local\bin\claude.exe`: pe, winRoam + `\npm\claude.cmd`: cmdShim}, "claude",
			winHome + `\.local\bin\claude.exe`, "Claude Code's native installer", ""},
		{"windows npm shim", winEnv, fakeFS{winRoam + `\npm\claude.cmd`: cmdShim}, "claude",
			winRoam + `\npm\claude.cmd`, "npm's global prefix", ""},
		{"windows npm prefix of the user's own", Env{GOOS: "windows", Home: winHome, AppData: winRoam, NpmPrefix: `D:\npm`}, fakeFS{`D:\npm\codex.cmd`: "@ECHO off"}, "codex",
			`D:\npm\codex.cmd`, "npm's global prefix", ""},
		{"windows placeholder exe", winEnv, fakeFS{winHome + `\.local\bin\claude.exe`: stub}, "claude",
			winHome + `\.local\bin\claude.exe`, "Claude Code's native installer", "Claude Code's install did not finish"},
		{"windows nothing", winEnv, fakeFS{`C:\elsewhere\claude.exe`: pe}, "claude", "", "", ""},
		{"macos native installer", macEnv, fakeFS{macHome + "/.local/bin/claude": machoBin, "/opt/homebrew/bin/claude": machoBin}, "claude",
			macHome + "/.local/bin/claude", "Claude Code's native installer", ""},
		{"macos old local install", macEnv, fakeFS{macHome + "/.claude/local/claude": script}, "claude",
			macHome + "/.claude/local/claude", "Claude Code's local install (claude migrate-installer)", ""},
		{"macos homebrew", macEnv, fakeFS{"/opt/homebrew/bin/codex": script}, "codex", "/opt/homebrew/bin/codex", "Homebrew", ""},
		{"macos npm prefix", Env{GOOS: "darwin", Home: macHome, NpmPrefix: macHome + "/.npm"}, fakeFS{macHome + "/.npm/bin/gemini": script, "/usr/local/bin/gemini": script}, "gemini",
			macHome + "/.npm/bin/gemini", "npm's global prefix", ""},
		{"macos placeholder", macEnv, fakeFS{macHome + "/.local/bin/claude": stub}, "claude",
			macHome + "/.local/bin/claude", "Claude Code's native installer", "curl -fsSL https://claude.ai/install.sh"},
		{"linux native installer", linuxEnv, fakeFS{linuxHome + "/.local/bin/claude": elfBin}, "claude",
			linuxHome + "/.local/bin/claude", "Claude Code's native installer", ""},
		{"linux linuxbrew", linuxEnv, fakeFS{"/home/linuxbrew/.linuxbrew/bin/codex": elfBin}, "codex",
			"/home/linuxbrew/.linuxbrew/bin/codex", "Homebrew", ""},
		{"linux empty file", linuxEnv, fakeFS{linuxHome + "/.npm-global/bin/gemini": ""}, "gemini",
			linuxHome + "/.npm-global/bin/gemini", "npm's global prefix (~/.npm-global)", "the install of gemini did not finish"},
		{"linux a text file is no program", linuxEnv, fakeFS{"/usr/local/bin/codex": "echo hi\n"}, "codex",
			"/usr/local/bin/codex", "npm's default prefix", "placeholder"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := Find(tt.files, tt.env, tt.agent)
			if tt.want == "" {
				if ok {
					t.Fatalf("found %+v, want nothing", f)
				}
				return
			}
			if !ok || f.Path != tt.want || f.Source != tt.source {
				t.Fatalf("Find = %+v %v, want %s from %s", f, ok, tt.want, tt.source)
			}
			switch {
			case tt.problem == "" && f.Problem != nil:
				t.Errorf("a program called a placeholder: %v", f.Problem)
			case tt.problem != "" && (f.Problem == nil || !strings.Contains(f.Problem.Error(), tt.problem)):
				t.Errorf("Problem = %v, want it to say %q", f.Problem, tt.problem)
			}
		})
	}
}

func TestIsProgram(t *testing.T) {
	for _, tt := range []struct {
		goos, head string
		want       bool
	}{
		{"windows", pe, true}, {"windows", elfBin, false}, {"windows", stub, false}, {"windows", "", false},
		{"darwin", machoBin, true}, {"darwin", "\xca\xfe\xba\xbe\x00\x00\x00\x02", true}, {"darwin", script, true}, {"darwin", stub, false},
		{"linux", elfBin, true}, {"linux", script, true}, {"linux", pe, false}, {"linux", "", false},
	} {
		if got := IsProgram(tt.goos, []byte(tt.head)); got != tt.want {
			t.Errorf("IsProgram(%s, %q) = %v, want %v", tt.goos, tt.head, got, tt.want)
		}
	}
}

// A .cmd shim is a script cmd.exe reads, never a placeholder.
func TestCheckLeavesScriptsAlone(t *testing.T) {
	files := fakeFS{`C:\npm\claude.cmd`: cmdShim, `C:\npm\claude.exe`: stub}
	if err := Check(files, "windows", `C:\npm\claude.cmd`, "claude"); err != nil {
		t.Errorf("a .cmd shim: %v", err)
	}
	err := Check(files, "windows", `C:\npm\claude.exe`, "claude")
	if err == nil || !strings.Contains(err.Error(), `C:\npm\claude.exe is not a program but a 84-byte placeholder`) || !strings.Contains(err.Error(), "install.ps1") {
		t.Errorf("a placeholder claude.exe: %v", err)
	}
}

func TestNpmrcPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"prefix=~/.npm-global\n":              "/home/ada/.npm-global",
		"registry=x\nprefix = \"/opt/npm\"\n": "/opt/npm",
		"cache=/x\n":                          "",
	} {
		if got := npmrcPrefix(in, "/home/ada"); got != want {
			t.Errorf("npmrcPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}
