package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
)

func (e *env) notifyCmd() *cobra.Command {
	var asJSON bool
	test := &cobra.Command{Use: "test", Short: "Send one real notice to the [phone] service and say what it answered",
		Long:    "The running station sends one notice through the service config.toml's\n[phone] table names (ntfy, or a webhook) and prints what the service\nanswered, or why it refused (docs/phone.md).",
		Example: "  buildstation notify test\n  buildstation notify test --json",
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.notifyTest(asJSON) }}
	test.Flags().BoolVar(&asJSON, "json", false, "print the service and its answer as a JSON object")
	login := &cobra.Command{Use: "login", Short: "Store the [phone] service's access token in the OS keychain",
		Long:    "Store the access token of the [phone] service (an ntfy token, a webhook's\nbearer token) in the OS keychain: paste it when asked, or pipe it in.\nWhere there is no keychain, set token_env in [phone] instead. Restart the\nstation to use a new token.",
		Example: "  buildstation notify login\n  echo \"$NTFY_TOKEN\" | buildstation notify login",
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.notifyLogin() }}
	return group("notify", "Notices on your phone: test the [phone] service, store its token",
		"The [phone] table of config.toml forwards notices to ntfy or a webhook;\na permission forwarded to ntfy can be allowed or denied from the phone\n(docs/phone.md).",
		"  buildstation notify test", login, test)
}

func (e *env) notifyTest(asJSON bool) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	res, err := c.PhoneTest(e.ctx, nil)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, res)
	}
	fmt.Fprintf(e.stdout, "sent a test notice through %s: %s\n", textsafe.Line(res.Service), textsafe.Line(res.Answer))
	return nil
}

func (e *env) notifyLogin() error {
	if e.deps.Keychain == nil {
		return errors.New("this build has no keychain access; set token_env in the [phone] table instead")
	}
	tok, err := e.readToken("phone service's")
	if err != nil {
		return err
	}
	if err := e.deps.Keychain("phone", "", tok); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "stored the phone service's token in the keychain; restart the station (buildstation service stop, then start) to use it")
	return nil
}
