package api_test

import (
	"testing"

	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// TestMain lets the test binary be its sessions' agent (apitest.Agent).
func TestMain(m *testing.M) { apitest.Main(m) }
