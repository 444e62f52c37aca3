//go:build linux

package claude

import (
	"testing"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// TestMain builds buildstation once, as the station ships: without cgo.
func TestMain(m *testing.M) { e2erig.Main(m, e2erig.Options{}) }
