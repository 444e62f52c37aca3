package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// notifyLoginOptions are `notify login`'s.
type notifyLoginOptions struct {
	*env
}

func init() { subcommand("notify", newNotifyLoginCmd) }

func newNotifyLoginCmd(e *env, runF func(*notifyLoginOptions) error) *cobra.Command {
	o := &notifyLoginOptions{env: e}
	return &cobra.Command{Use: "login", Short: "Store the [phone] service's access token in the OS keychain",
		Long:    "Store the access token of the [phone] service (an ntfy token, a webhook's\nbearer token) in the OS keychain: paste it when asked, or pipe it in.\nWhere there is no keychain, set token_env in [phone] instead. Restart the\nstation to use a new token.",
		Example: "  buildstation notify login\n  echo \"$NTFY_TOKEN\" | buildstation notify login",
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, notifyLoginRun)}
}

func notifyLoginRun(o *notifyLoginOptions) error {
	if o.deps.Keychain == nil {
		return errors.New("this build has no keychain access; set token_env in the [phone] table instead")
	}
	tok, err := o.readToken("phone service's")
	if err != nil {
		return err
	}
	if err := o.deps.Keychain("phone", "", tok); err != nil {
		return err
	}
	fmt.Fprintln(o.stdout, "stored the phone service's token in the keychain; restart the station (buildstation service stop, then start) to use it")
	return nil
}
