//go:build linux

package team

import (
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

func TestMain(m *testing.M) { rig.Main(m, rig.Options{}) }
