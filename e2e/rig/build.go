//go:build unix

package rig

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// mainPkg is the buildstation command, built by import path so that a test
// package's directory does not matter.
const mainPkg = "github.com/buildstation/buildstation"

// Build compiles buildstation as the station ships, without cgo, into a
// fresh directory named after prefix. A TestMain calls it once, so every
// test in the binary drives the same build; cleanup removes the directory.
func Build(prefix string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, fmt.Errorf("build buildstation: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	bin = filepath.Join(dir, "buildstation")
	build := exec.Command("go", "build", "-o", bin, mainPkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build buildstation: %w\n%s", err, out)
	}
	return bin, cleanup, nil
}
