package keychain

import (
	"errors"
	"fmt"
	"os"

	"github.com/zalando/go-keyring"

	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Service is the keychain entry's service name; the account is the kind
// of source ("github", "linear").
const Service = "buildstation"

// Set stores the token for kind.
func Set(kind, token string) error {
	if err := keyring.Set(Service, kind, token); err != nil {
		return unavailable(err)
	}
	return nil
}

// Token is src's token: from the variable token_env names, or else from
// the keychain; errors.Is source.ErrNoToken when neither has one.
func Token(src config.Source) (string, error) {
	if src.TokenEnv != "" {
		if tok := os.Getenv(src.TokenEnv); tok != "" {
			return tok, nil
		}
		return "", fmt.Errorf("%w: %s names the variable %s, which is empty or unset", source.ErrNoToken, src.Name(), src.TokenEnv)
	}
	tok, err := keyring.Get(Service, src.Kind)
	if errors.Is(err, keyring.ErrNotFound) {
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
