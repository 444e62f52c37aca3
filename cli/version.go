package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/internal/update"
)

// versionOptions are `version`'s.
type versionOptions struct {
	*env
	Check bool
}

func newVersionCmd(e *env, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{env: e}
	c := &cobra.Command{
		Use: "version [--check]", Short: "Print the version (also --version); --check asks whether a newer release exists",
		Long: `Print this build's version. With --check, also ask the project's releases
whether a newer one exists, and say where to get it. Nothing is downloaded.
BUILDSTATION_UPDATE_URL points the check at another releases API.`,
		Example: "  buildstation version\n  buildstation version --check",
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, versionRun),
	}
	c.Flags().BoolVar(&o.Check, "check", false, "ask whether a newer release exists")
	return c
}

func versionRun(o *versionOptions) error {
	if err := o.printf("buildstation %s\n", Version); err != nil || !o.Check {
		return err
	}
	return o.versionCheck(o.stdout)
}

// versionCheck says whether a newer release than this build exists.
func (e *env) versionCheck(out io.Writer) error {
	ck := update.New(Version)
	rel, err := ck.Latest(e.ctx)
	if errors.Is(err, update.ErrOff) {
		// Turned off on purpose: nothing to try again.
		_, err = fmt.Fprintf(out, "%v; unset it to check\n", err)
		return err
	}
	if err != nil {
		return fmt.Errorf("could not check for a newer release (%v); try again later", err)
	}
	if update.Newer(rel.Version, Version) {
		_, err = fmt.Fprintf(out, "Update available: v%s %s\n", textsafe.Line(rel.Version), textsafe.Line(rel.URL))
		return err
	}
	_, err = fmt.Fprintf(out, "no newer release (latest: v%s)\n", textsafe.Line(rel.Version))
	return err
}
