package keychain

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"

	"github.com/buildstation/buildstation/platform/secretenv"
)

// PhoneAccount is the keychain account of the [phone] service's token.
const PhoneAccount = "phone"

// PhoneToken is the [phone] service's access token: from the variable
// tokenEnv names, or else from the keychain; "" when neither has one (a
// public ntfy topic or a webhook needs none).
func PhoneToken(tokenEnv string) (string, error) {
	if tokenEnv != "" {
		if tok := secretenv.Getenv(tokenEnv); tok != "" {
			return tok, nil
		}
		return "", fmt.Errorf("[phone] token_env names the variable %s, which is empty or unset; set it, or remove token_env", tokenEnv)
	}
	tok, err := keyring.Get(Service, PhoneAccount)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return "", nil // no keychain here: no token, as for a public topic
	}
	return tok, nil
}
