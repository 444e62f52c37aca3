package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor/agent"
)

// MinDuration is the shortest window accepted: short enough for tests and
// demos to run in seconds, long enough that a typo like "5ms" is caught.
const MinDuration = time.Second

// The value syntaxes below are small on purpose: each accepts one obvious
// spelling, so that what a user reads in config.toml is what the station does.

// parseDuration reads a Go duration of at least MinDuration.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	if d < MinDuration {
		return 0, fmt.Errorf("%q is shorter than %s", s, MinDuration)
	}
	return d, nil
}

const durationFix = `use Go durations like "90s" or "5m", from 1s up`

// parseCPU reads "N%", 0 < N <= 100, as the fraction N/100 of one core.
// Only the percent form is accepted: a bare "0.1" could be read either way.
func parseCPU(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage", s)
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(n > 0 && n <= 100) {
		return 0, fmt.Errorf("%q is not a percentage above 0%% and at most 100%%", s)
	}
	return n / 100, nil
}

const cpuFix = `use a share of one core like "10%"`

// parseBreaker reads "N in D" (N >= 1 blocks within duration D), or "off"
// or "0" for no breaker.
func parseBreaker(s string) (Breaker, error) {
	t := strings.TrimSpace(s)
	if t == "off" || t == "0" {
		return Breaker{}, nil
	}
	count, within, ok := strings.Cut(t, " in ")
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if !ok || err != nil || n < 1 {
		return Breaker{}, fmt.Errorf("%q is not a breaker", s)
	}
	d, err := parseDuration(strings.TrimSpace(within))
	if err != nil {
		return Breaker{}, fmt.Errorf("%q is not a breaker: %w", s, err)
	}
	return Breaker{Count: n, Within: d}, nil
}

const breakerFix = `use "3 in 10m" (this many blocks within this time pause the project) or "off"`

// Backends a session may run in.
var backends = []string{"pty", "tmux"}

// Permission modes passed to the agent; "" keeps the agent's own default.
var permissionModes = []string{"", "default", "acceptEdits", "plan", "auto", "bypassPermissions"}

// Profiles name the built-in wiring an agent gets (hooks, MCP config).
// They are read from the registry of supervisor/agent, where each
// profile declares itself.
func profiles() []string { return agent.ProfileNames(false) }
