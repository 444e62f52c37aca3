package update

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// Say is version --check: it says on out whether a newer release than
// current exists, and where to get it. It lives here, not in the command
// line's package, so that the light command line (cmd/buildstation) links
// no HTTPS client: it hands version --check to the app.
func Say(ctx context.Context, current string, out io.Writer) error {
	rel, err := New(current).Latest(ctx)
	if errors.Is(err, ErrOff) {
		// Turned off on purpose: nothing to try again.
		_, err = fmt.Fprintf(out, "%v; unset it to check\n", err)
		return err
	}
	if err != nil {
		return fmt.Errorf("could not check for a newer release (%v); try again later", err)
	}
	if Newer(rel.Version, current) {
		_, err = fmt.Fprintf(out, "Update available: v%s %s\n", textsafe.Line(rel.Version), textsafe.Line(rel.URL))
		return err
	}
	_, err = fmt.Fprintf(out, "no newer release (latest: v%s)\n", textsafe.Line(rel.Version))
	return err
}
