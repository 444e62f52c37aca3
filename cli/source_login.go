package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// sourceLoginOptions are `source login`'s.
type sourceLoginOptions struct {
	*env
	Kind string // github or linear
	Host string
}

func init() { subcommand("source", newSourceLoginCmd) }

func newSourceLoginCmd(e *env, runF func(*sourceLoginOptions) error) *cobra.Command {
	o := &sourceLoginOptions{env: e}
	c := &cobra.Command{Use: "login github|linear", Short: "Store a GitHub or Linear token in the OS keychain",
		Long:      "Store the token [[sources]] of that kind use in the OS keychain (Keychain,\nCredential Manager, Secret Service): paste it when asked, or pipe it in.\nTokens never live in config.toml; where there is no keychain (a headless\nLinux box), set token_env in the source's table to read it from a variable.\nA token is kept for one host: --host names a GitHub Enterprise Server (the\nhost of the source's api_url), so it never receives the github.com token.\nRestart the station to use a new token.",
		Example:   "  buildstation source login github\n  buildstation source login github --host ghe.example.com\n  echo \"$LINEAR_API_KEY\" | buildstation source login linear",
		Args:      positional(1, 1),
		ValidArgs: []string{"github", "linear"},
		RunE:      runE(o, firstArg(&o.Kind), runF, sourceLoginRun)}
	c.Flags().StringVar(&o.Host, "host", "", "the API host the token is for, as in the source's api_url (default: the service's own)")
	return c
}

func sourceLoginRun(o *sourceLoginOptions) error {
	e, kind, host := o.env, o.Kind, o.Host
	if kind != "github" && kind != "linear" {
		return usagef("%q is not a kind of source; use github or linear", kind)
	}
	if strings.ContainsAny(host, "/ \t") {
		return usagef("%q is not a host; give it as in the source's api_url, like --host ghe.example.com", host)
	}
	if e.deps.Keychain == nil {
		return errors.New("this build has no keychain access; set token_env in the source's [[sources]] table instead")
	}
	tok, err := e.readToken(kind)
	if err != nil {
		return err
	}
	if err := e.deps.Keychain(kind, host, tok); err != nil {
		return err
	}
	for_ := kind
	if host != "" {
		for_ += " on " + host
	}
	fmt.Fprintf(e.stdout, "stored the %s token in the keychain; restart the station (buildstation service stop, then start) to use it\n", for_)
	return nil
}
