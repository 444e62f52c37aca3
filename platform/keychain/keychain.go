package keychain

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/zalando/go-keyring"

	"github.com/buildstation/buildstation/platform/secretenv"

	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Service is the keychain entry's service name; the account is the kind
// of source ("github", "linear") for the service's own host, and
// "kind@host" for another (a GitHub Enterprise Server), so a token given
// for one host is never sent to another.
const Service = "buildstation"

// defaultHosts are the hosts whose token is kept under the bare kind.
var defaultHosts = map[string]string{"github": "api.github.com", "linear": "api.linear.app"}

// Account is the keychain account of kind's token for host ("" or the
// service's own API host: the bare kind).
func Account(kind, host string) string {
	host = strings.ToLower(strings.TrimSpace(host))
	if host == "" || host == defaultHosts[kind] || kind == "github" && host == "github.com" {
		return kind
	}
	return kind + "@" + host
}

// Host is the host src's token is for: api_url's, "" for the service's own.
func Host(src config.Source) string {
	if src.APIURL == "" {
		return ""
	}
	u, err := url.Parse(src.APIURL)
	if err != nil {
		return src.APIURL
	}
	return u.Host
}

// Set stores the token for kind on host ("" = the service's own).
func Set(kind, host, token string) error {
	if err := keyring.Set(Service, Account(kind, host), token); err != nil {
		return unavailable(err)
	}
	return nil
}

// Token is src's token: from the variable token_env names, or else from
// the keychain, the one stored for src's host; errors.Is
// source.ErrNoToken when neither has one.
func Token(src config.Source) (string, error) {
	if src.TokenEnv != "" {
		if tok := secretenv.Getenv(src.TokenEnv); tok != "" {
			return tok, nil
		}
		return "", fmt.Errorf("%w: %s names the variable %s, which is empty or unset", source.ErrNoToken, src.Name(), src.TokenEnv)
	}
	host := Host(src)
	tok, err := keyring.Get(Service, Account(src.Kind, host))
	if errors.Is(err, keyring.ErrNotFound) {
		if Account(src.Kind, host) != src.Kind {
			return "", fmt.Errorf("%w in the keychain for %s on %s", source.ErrNoToken, src.Kind, host)
		}
		return "", fmt.Errorf("%w in the keychain for %s", source.ErrNoToken, src.Kind)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %w", source.ErrNoToken, unavailable(err))
	}
	return tok, nil
}

// unavailable is a keychain that cannot be used here, as one sentence.
func unavailable(err error) error {
	return fmt.Errorf("the OS keychain is not available here (%v); set token_env in the source's [[sources]] table to read the token from an environment variable instead", err)
}
