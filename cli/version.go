package cli

import (
	"errors"

	"github.com/spf13/cobra"
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
	if o.Check && o.deps.CheckVersion == nil {
		return handVersionCheck(o)
	}
	if err := o.printf("buildstation %s\n", Version); err != nil || !o.Check {
		return err
	}
	return o.deps.CheckVersion(o.ctx, o.stdout)
}

// handVersionCheck runs version --check in the app (Roles.Version), which
// prints the version line too: this build links no HTTPS client (the
// light command line; see Deps.CheckVersion).
func handVersionCheck(o *versionOptions) error {
	if o.deps.Roles.Version == nil {
		return errors.New("this build cannot ask for releases; see https://github.com/buildstation/buildstation/releases")
	}
	if code := o.deps.Roles.Version(o.ctx, o.home, []string{"--check"}); code != 0 {
		return &exitCode{code}
	}
	return nil
}
