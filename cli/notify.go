package cli

import (
	"github.com/spf13/cobra"
)

// notifyCmd is `notify`; each of its commands is in notify_<verb>.go
// (`notify test` in notify_test_cmd.go: a _test.go file would be a test).
func (e *env) notifyCmd() *cobra.Command {
	return group("notify", "Notices on your phone: test the [phone] service, store its token",
		"The [phone] table of config.toml forwards notices to ntfy or a webhook;\na permission forwarded to ntfy can be allowed or denied from the phone\n(docs/phone.md).",
		"  buildstation notify test",
		newNotifyLoginCmd(e, nil),
		newNotifyTestCmd(e, nil),
	)
}
