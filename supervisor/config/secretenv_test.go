package config

import (
	"slices"
	"testing"
)

// SecretEnv lists what the station strips; the docs promise this list.
func TestSecretEnvList(t *testing.T) {
	cfg := &Config{Sources: []Source{{TokenEnv: "GHTOK"}, {TokenEnv: "LINTOK"}, {}}}
	want := []string{"BUILDSTATION_TOKEN", "GHTOK", "LINTOK"}
	if got := cfg.SecretEnv(); !slices.Equal(got, want) {
		t.Errorf("SecretEnv, own board = %q, want %q", got, want)
	}
	cfg.Board = "postgres://u@h/db"
	want = []string{"BUILDSTATION_TOKEN", "GHTOK", "LINTOK", "PGPASSFILE", "PGPASSWORD", "PGSERVICEFILE", "PGSSLKEY", "PGSSLPASSWORD"}
	if got := cfg.SecretEnv(); !slices.Equal(got, want) {
		t.Errorf("SecretEnv, shared board = %q, want %q", got, want)
	}
}
