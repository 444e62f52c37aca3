//go:build linux

package team

import (
	"fmt"
	"os"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

var bin string // the buildstation binary under test

func TestMain(m *testing.M) {
	var cleanup func()
	var err error
	bin, cleanup, err = rig.Build("bs-e2e-team-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}
