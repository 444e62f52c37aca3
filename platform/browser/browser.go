package browser

import (
	"fmt"
	"net/url"

	"github.com/buildstation/buildstation/platform/childproc"
)

// Open hands link (http or https only) to the desktop's opener.
func Open(link string) error {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("open %q: not a web link", link)
	}
	prog, args := opener(u.String())
	cmd := childproc.Command(prog, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s with %s: %w", link, prog, err)
	}
	go cmd.Wait() // reap it; the opener's own exit says nothing useful
	return nil
}
