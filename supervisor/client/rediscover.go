package client

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A session that outlives its station (tmux) keeps the BUILDSTATION_URL it
// was started with. When the next station cannot get that port back, it
// writes its new address into the session's folder (apitype.SessionURLFile,
// beside the prompt file); the agent's client reads it there whenever the
// address it has does not answer as this session's station. The proof
// (prove.go) still decides: a file that names a stranger gets no token.

// urlFileFromEnv is the session's station.url, found beside its prompt
// file; "" outside a session.
func urlFileFromEnv() string {
	p := os.Getenv(apitype.EnvPromptFile)
	if p == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(p), apitype.SessionURLFile)
}

// base is the station's address this client calls.
func (c *Client) base() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.BaseURL
}

// rediscover reads the session's station.url and, when it names another
// address than the one that failed, moves the client there; true means a
// retry may succeed.
func (c *Client) rediscover(failed string) bool {
	if c.urlFile == "" {
		return false
	}
	b, err := os.ReadFile(c.urlFile)
	if err != nil {
		return false
	}
	u := strings.TrimRight(strings.TrimSpace(string(b)), "/")
	if !strings.HasPrefix(u, "http://") || u == failed {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.BaseURL = u
	return true
}

// unreached reports whether err means the request never left: nothing
// listens at the address, or what does failed the proof. Only then may it
// go to another address without being made twice.
func unreached(err error) bool {
	var ns *NotStationError
	var ended *endedError
	var op *net.OpError
	return errors.As(err, &ns) || errors.As(err, &ended) || errors.As(err, &op) && op.Op == "dial"
}
