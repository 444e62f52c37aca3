package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// `notify test`: its file ends in _cmd, since Go takes a name that ends
// in _test for a test file.

// notifyTestOptions are `notify test`'s.
type notifyTestOptions struct {
	*env
	JSON bool
}

func init() { subcommand("notify", newNotifyTestCmd) }

func newNotifyTestCmd(e *env, runF func(*notifyTestOptions) error) *cobra.Command {
	o := &notifyTestOptions{env: e}
	c := &cobra.Command{Use: "test", Short: "Send one real notice to the [phone] service and say what it answered",
		Long:    "The running station sends one notice through the service config.toml's\n[phone] table names (ntfy, or a webhook) and prints what the service\nanswered, or why it refused (docs/phone.md).",
		Example: "  buildstation notify test\n  buildstation notify test --json",
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, notifyTestRun)}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the service and its answer as a JSON object")
	return c
}

func notifyTestRun(o *notifyTestOptions) error {
	return ask(o.env, func(c *client.Client) (apitype.PhoneTestResult, error) { return c.PhoneTest(o.ctx, nil) }, func(res apitype.PhoneTestResult) error {
		if o.JSON {
			return printJSON(o.stdout, res)
		}
		return o.printf("sent a test notice through %s: %s\n", textsafe.Line(res.Service), textsafe.Line(res.Answer))
	})
}
