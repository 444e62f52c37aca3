package apitype

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/internal/atomicfile"
)

// stationFileName is station.json in the home folder (docs/contract.md, Files).
const stationFileName = "station.json"

// StationFile is station.json: how clients find the running station.
type StationFile struct {
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"started_at"`
}

// WriteStationFile replaces home/station.json atomically (temp file and
// rename), so a client never reads half a file. Mode 0600: it is the
// user's own business where their station listens.
func WriteStationFile(home string, f StationFile) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode station file: %w", err)
	}
	return writeFileAtomic(filepath.Join(home, stationFileName), append(b, '\n'))
}

// ReadStationFile reads home/station.json. A missing file wraps
// fs.ErrNotExist: no station has started in this home.
func ReadStationFile(home string) (StationFile, error) {
	path := filepath.Join(home, stationFileName)
	b, err := os.ReadFile(path)
	if err != nil {
		return StationFile{}, fmt.Errorf("read station file: %w", err)
	}
	var f StationFile
	if err := json.Unmarshal(b, &f); err != nil {
		return StationFile{}, fmt.Errorf("read station file %s: %w", path, err)
	}
	if f.URL == "" {
		return StationFile{}, fmt.Errorf("read station file %s: no url", path)
	}
	if !loopbackURL(f.URL) {
		return StationFile{}, fmt.Errorf("station file %s names %q, which is not a loopback address; a station listens on 127.0.0.1 only, so the file is not one a station wrote: delete it and start the station again", path, f.URL)
	}
	return f, nil
}

// loopbackURL accepts http://127.0.0.1:PORT (any loopback IP) and
// http://localhost:PORT: what a station writes. Anything else would send
// the station token elsewhere.
func loopbackURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" || u.User != nil || u.Port() == "" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// writeFileAtomic replaces path with data, private to the user: mode
// 0600, in a folder made 0700 when it is missing.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return atomicfile.Write(path, data, 0o600)
}
