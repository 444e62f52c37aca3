//go:build linux

package team

import (
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

// cluster is the suite's own PostgreSQL server (rig.Postgres).
type cluster = rig.Postgres

func newCluster(t *testing.T) *cluster { return rig.NewPostgres(t) }
