package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSharedBoardKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	text := `board = "postgres://bs@db/board"
station = "buildbox"
lease = "2s"

[[projects]]
name = "here"
path = '` + dir + `'

[[projects]]
name = "elsewhere"
path = '/no/such/folder/on/this/machine'
stations = ["buildbox"]
`
	cfg, err := Parse(path, []byte(text), Platform{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if !cfg.Shared() || cfg.Station != "buildbox" || cfg.Lease.Seconds() != 2 {
		t.Errorf("shared = %v, station = %q, lease = %v", cfg.Shared(), cfg.Station, cfg.Lease)
	}
	p, _ := cfg.Project("elsewhere")
	if p.Path != "/no/such/folder/on/this/machine" || !p.RunsHere("buildbox") || p.RunsHere("laptop") {
		t.Errorf("elsewhere = %+v", p)
	}
	if here, _ := cfg.Project("here"); !here.RunsHere("anyone") {
		t.Error("a project without stations must run on every station")
	}
}

func TestMissingPathStillRefusedWithoutSharedBoard(t *testing.T) {
	for _, text := range []string{
		"[[projects]]\nname = \"a\"\npath = '/no/such/dir'\n",
		"board = \"\"\n[[projects]]\nname = \"a\"\npath = '/no/such/dir'\n",
	} {
		_, err := Parse(filepath.Join(t.TempDir(), "config.toml"), []byte(text), Platform{})
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%q: error %v, want the missing path refused", text, err)
		}
	}
	// A shared board still refuses a path that is a file: that is a typo,
	// not a project kept on another machine.
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Parse(filepath.Join(t.TempDir(), "config.toml"), []byte("board = \"postgres://db/b\"\n[[projects]]\nname = \"a\"\npath = '"+file+"'\n"), Platform{})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file as path on a shared board: %v", err)
	}
}

func TestStationKey(t *testing.T) {
	_, err := Parse("/h/config.toml", []byte("station = \"  \"\n"), Platform{})
	if err == nil || !strings.Contains(err.Error(), "/h/config.toml:1: station") {
		t.Errorf("empty station: %v", err)
	}
	_, err = Parse("/h/config.toml", []byte("station = 3\n"), Platform{})
	if err == nil || !strings.Contains(err.Error(), "not a string") {
		t.Errorf("station as a number: %v", err)
	}
}

func TestStationName(t *testing.T) {
	host, _ := os.Hostname()
	t.Setenv(EnvStation, "")
	a := (&Config{Path: "/home/a/.buildstation/config.toml"}).StationName()
	b := (&Config{Path: "/home/b/.buildstation/config.toml"}).StationName()
	if host != "" && !strings.HasPrefix(a, host+"-") || a == b {
		t.Errorf("default station names %q and %q: want the host name %q and a part unique to each home", a, b, host)
	}
	if again := (&Config{Path: "/home/a/.buildstation/config.toml"}).StationName(); again != a {
		t.Errorf("default station name changed between calls: %q, %q", a, again)
	}
	if got := (&Config{Station: "buildbox"}).StationName(); got != "buildbox" {
		t.Errorf("station key: name = %q", got)
	}
	t.Setenv(EnvStation, "B")
	if got := (&Config{Station: "buildbox"}).StationName(); got != "B" {
		t.Errorf("with %s=B: name = %q", EnvStation, got)
	}
}

func TestDefaultTextDocumentsStation(t *testing.T) {
	if !strings.Contains(DefaultText(), "# station = ") {
		t.Error("DefaultText() does not show the station key")
	}
}

// remote: on a shared board "origin" by default (used only if the
// repository has it); off on the station's own board; "off" or "" turn it
// off; a name git would take for something else is refused with its line.
func TestRemoteKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	project := func(extra string) string {
		return "[[projects]]\nname = \"web\"\npath = '" + dir + "'\n" + extra
	}
	for _, tc := range []struct {
		text, remote string
		auto         bool
	}{
		{project(""), "", false},
		{`board = "postgres://db/b"` + "\n" + project(""), "origin", true},
		{`board = "postgres://db/b"` + "\n" + project(`remote = "off"`), "", false},
		{`board = "postgres://db/b"` + "\n" + project(`remote = ""`), "", false},
		{`board = "postgres://db/b"` + "\n" + project(`remote = "backup"`), "backup", false},
		{project(`remote = "origin"`), "origin", false},
	} {
		cfg, err := Parse(path, []byte(tc.text), Platform{})
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		p, _ := cfg.Project("web")
		if p.Remote != tc.remote || p.RemoteAuto != tc.auto {
			t.Errorf("%q: remote %q auto %v, want %q %v", tc.text, p.Remote, p.RemoteAuto, tc.remote, tc.auto)
		}
	}
	_, err := Parse(path, []byte(project(`remote = "--upload-pack=x"`)), Platform{})
	if err == nil || !strings.Contains(err.Error(), "config.toml:4: projects[0].remote") || !strings.Contains(err.Error(), "not the name of a git remote") {
		t.Errorf("bad remote: %v", err)
	}
}
