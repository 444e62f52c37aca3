package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// EnvHome names the environment variable that overrides the home folder
// (apitype's, where the home's check lives, which a client links).
const EnvHome = apitype.EnvHome

// Home resolves the folder that holds config.toml, station.db, station.json,
// token and logs/: the --home flag if given, else $BUILDSTATION_HOME, else
// os.UserConfigDir()/BuildStation. The path is made absolute.
func Home(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = os.Getenv(EnvHome)
	}
	if dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("find the user config folder (set %s to choose one): %w", EnvHome, err)
		}
		dir = filepath.Join(base, "BuildStation")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve home %q: %w", dir, err)
	}
	return abs, nil
}

// Files in the home folder, named in the contract (docs/contract.md).
const (
	FileConfig  = "config.toml"
	FileDB      = "station.db"
	FileStation = "station.json"
	FileToken   = "token"
	DirLogs     = "logs"
)
