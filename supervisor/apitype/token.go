package apitype

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tokenFileName is the station token's file in the home folder.
const tokenFileName = "token"

// LoadOrCreateToken returns the station token from home/token, creating it
// (32 random bytes, hex) on first run. The token is the key to every
// session on the machine, so the file is kept at 0600: a looser mode (a
// copy, an umask) is tightened again.
func LoadOrCreateToken(home string) (string, error) {
	path := filepath.Join(home, tokenFileName)
	tok, err := ReadToken(home)
	switch {
	case err == nil:
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", fmt.Errorf("restrict token file %s to its owner: %w", path, err)
			}
		}
		return tok, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate station token: %w", err)
	}
	tok = hex.EncodeToString(b[:])
	if err := writeFileAtomic(path, []byte(tok+"\n")); err != nil {
		return "", fmt.Errorf("save station token: %w", err)
	}
	return tok, nil
}

// ReadToken reads the station token from home/token. A missing file wraps
// fs.ErrNotExist.
func ReadToken(home string) (string, error) {
	path := filepath.Join(home, tokenFileName)
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read station token: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("read station token: %s is empty", path)
	}
	return tok, nil
}
