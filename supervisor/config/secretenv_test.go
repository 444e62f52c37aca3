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
	cfg.Phone.TokenEnv = "NTFY_TOKEN"
	if got := cfg.SecretEnv(); !slices.Contains(got, "NTFY_TOKEN") {
		t.Errorf("SecretEnv = %q lacks the [phone] token_env", got)
	}
}
