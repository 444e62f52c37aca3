package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On Windows the first-run config.toml's example paths are Windows paths
// (a drive, backslashes, a .cmd hook), in TOML literal strings, and the
// file still parses to the defaults; elsewhere they stay Unix paths.
func TestFirstRunExamplesUseTheOSPaths(t *testing.T) {
	home := t.TempDir()
	if _, err := Load(home, Platform{Windows: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(home, FileConfig))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, unix := range []string{`"/src/web"`, `/home/me`} {
		if strings.Contains(text, unix) {
			t.Errorf("the Windows first-run file shows the Unix path %s", unix)
		}
	}
	for _, win := range []string{`'C:\src\web'`, `'C:\Users\me\bin\tell-slack.cmd'`} {
		if !strings.Contains(text, win) {
			t.Errorf("the Windows first-run file has no %s", win)
		}
	}
	if !strings.Contains(DefaultText(), `"/src/web"`) {
		t.Error("the Unix first-run file lost its example path")
	}
}
