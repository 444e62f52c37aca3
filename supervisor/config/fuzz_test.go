package config

import (
	"path/filepath"
	"testing"
)

var fuzzSeeds = []string{
	DefaultText(),
	"",
	"max_sessions = 2\n[defaults]\nidle_window = \"1m\"\nbreaker = \"off\"\n",
	"[agents.mine]\ncommand = [\"sh\", \"a.sh\"]\nenv = { A = \"1\" }\n[[projects]]\nname = \"a\"\npath = \".\"\nagent = \"mine\"\n",
	"projects = [{ name = \"a\", path = \".\" }, { name = \"b\", path = \".\", bogus = 1 }]\n",
	"[[projects]]\nname = \"a\"\npath = \"nope\"\nidle_window = \"5x\"\n[[projects]]\nconcurrency = 0\n",
	"nudge = '''\n[[x]]\n'''\n[defaults\n",
}

// FuzzParse checks that no input panics Parse and that it returns exactly
// one of a Config and an error.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "config.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(path, data, Platform{})
		if (cfg == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one of a Config and an error", cfg, err)
		}
	})
}

// FuzzLocate runs the locator on any text, not only text the decoder
// accepted, so that a gap in it can never hang or crash the station.
func FuzzLocate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l := locate(text)
		for k, n := range l {
			if n < 1 {
				t.Fatalf("key %s at line %d", k, n)
			}
		}
	})
}
