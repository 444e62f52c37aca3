package update

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/atomicfile"
)

// DefaultBase is the project's releases API.
const DefaultBase = "https://api.github.com/repos/buildstation/buildstation"

// EnvURL overrides DefaultBase; "off" turns every check off.
const EnvURL = "BUILDSTATION_UPDATE_URL"

// Interval is how often the tray asks at most.
const Interval = 24 * time.Hour

// ErrOff is what a check answers when BUILDSTATION_UPDATE_URL is "off".
var ErrOff = errors.New("update checks are off (BUILDSTATION_UPDATE_URL=off)")

// Release is the latest release.
type Release struct {
	Version string `json:"version"` // without the v: "0.3.0"
	URL     string `json:"url"`     // its page
}

// Checker asks the releases API.
type Checker struct {
	Base    string       // DefaultBase, or EnvURL's
	HTTP    *http.Client // nil: a client with a 10s timeout
	Current string       // this build's version (cli.Version)
}

// New is a Checker for this build, honouring EnvURL.
func New(current string) Checker {
	base := os.Getenv(EnvURL)
	if base == "" {
		base = DefaultBase
	}
	return Checker{Base: strings.TrimRight(base, "/"), Current: current}
}

// Latest asks for the latest release.
func (c Checker) Latest(ctx context.Context) (Release, error) {
	if c.Base == "off" {
		return Release{}, ErrOff
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+"/releases/latest", nil)
	if err != nil {
		return Release{}, fmt.Errorf("ask for the latest release: %w", err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("User-Agent", "buildstation/"+c.Current)
	resp, err := hc.Do(req)
	if err != nil {
		return Release{}, fmt.Errorf("ask for the latest release: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Release{}, fmt.Errorf("ask for the latest release: %s answered %s", c.Base, resp.Status)
	}
	var body struct {
		Tag string `json:"tag_name"`
		URL string `json:"html_url"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20)).Decode(&body); err != nil {
		return Release{}, fmt.Errorf("read the latest release: %w", err)
	}
	if body.Tag == "" {
		return Release{}, errors.New("read the latest release: it has no tag")
	}
	return Release{Version: strings.TrimPrefix(body.Tag, "v"), URL: body.URL}, nil
}

// Newer says whether latest is a later version than current: x.y.z
// compared as numbers; a current build with a suffix (0.3.0-dev,
// 0.3.0-4-gabc) is older than its x.y.z release.
func Newer(latest, current string) bool {
	l, lsuf, ok1 := parse(latest)
	c, csuf, ok2 := parse(current)
	if !ok1 || !ok2 {
		return false
	}
	for i := range 3 {
		if l[i] != c[i] {
			return l[i] > c[i]
		}
	}
	return lsuf == "" && csuf != ""
}

func parse(v string) ([3]int, string, bool) {
	var n [3]int
	v = strings.TrimPrefix(v, "v")
	core, suffix, _ := strings.Cut(v, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return n, "", false
	}
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			return n, "", false
		}
		n[i] = x
	}
	return n, suffix, true
}

// state is what the daily check keeps between runs, in the home.
type state struct {
	CheckedAt time.Time `json:"checked_at"`
	Latest    Release   `json:"latest"`
	FailedLog time.Time `json:"failed_logged_at"`
}

// Daily is the tray's check: at most once per Interval (the time of the
// last ask is kept in file, so a restarted tray does not ask again), it
// answers the newest release when it is newer than this build. A failure
// (unreachable, rate-limited) is silent to the person and logged at most
// once per Interval.
type Daily struct {
	Checker Checker
	File    string // update.json in the home
	Now     func() time.Time
	Log     *slog.Logger
}

// Check answers the release to offer, if any.
func (d Daily) Check(ctx context.Context) (Release, bool) {
	now := d.Now()
	st := d.load()
	if now.Sub(st.CheckedAt) < Interval && now.After(st.CheckedAt) {
		return st.Latest, st.Latest.Version != "" && Newer(st.Latest.Version, d.Checker.Current)
	}
	rel, err := d.Checker.Latest(ctx)
	st.CheckedAt = now
	switch {
	case errors.Is(err, ErrOff):
		return Release{}, false
	case err != nil:
		if now.Sub(st.FailedLog) >= Interval || now.Before(st.FailedLog) {
			d.Log.Info("update check failed; trying again tomorrow", "err", err)
			st.FailedLog = now
		}
	default:
		st.Latest = rel
	}
	d.save(st)
	return st.Latest, st.Latest.Version != "" && Newer(st.Latest.Version, d.Checker.Current)
}

func (d Daily) load() state {
	var st state
	if b, err := os.ReadFile(d.File); err == nil {
		_ = json.Unmarshal(b, &st)
	}
	return st
}

func (d Daily) save(st state) {
	b, _ := json.Marshal(st)
	if err := os.MkdirAll(filepath.Dir(d.File), 0o700); err == nil {
		if err := atomicfile.Write(d.File, b, 0o600); err != nil {
			d.Log.Warn("keep the update check's time", "err", err)
		}
	}
}
