package agentfind

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// OS is the real file system.
type OS struct{}

func (OS) Stat(p string) (fs.FileInfo, error) { return os.Stat(p) }

func (OS) Head(p string, n int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:k], nil
}

// FromOS is Env for this user: npm's prefix from $NPM_CONFIG_PREFIX or
// the prefix= line of ~/.npmrc.
func FromOS(goos string) Env {
	home, _ := os.UserHomeDir()
	env := Env{GOOS: goos, Home: home, AppData: os.Getenv("APPDATA"), NpmPrefix: os.Getenv("NPM_CONFIG_PREFIX")}
	if env.NpmPrefix == "" && home != "" {
		if b, err := os.ReadFile(join(goos, home, ".npmrc")); err == nil {
			env.NpmPrefix = npmrcPrefix(string(b), home)
		}
	}
	return env
}
