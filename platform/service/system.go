package service

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/buildstation/buildstation/internal/atomicfile"
	"github.com/buildstation/buildstation/platform/childproc"
)

// OS is the real System. Its registry and service methods exist on Windows
// only (system_windows.go, system_other.go).
type OS struct {
	// Password asks for the account's password when a Windows service is
	// created; a service that runs as a user needs it.
	Password func(user string) (string, error)
}

var _ System = OS{}

func (OS) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// WriteFile replaces path whole (internal/atomicfile), so a unit or plist
// is never seen half-written.
func (OS) WriteFile(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, mode)
}

func (OS) Remove(path string) error { return os.Remove(path) }

func (OS) Run(argv []string) (string, error) {
	out, err := childproc.Command(argv[0], argv[1:]...).CombinedOutput()
	return string(out), err
}
