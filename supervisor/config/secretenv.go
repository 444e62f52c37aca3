package config

import (
	"slices"
)

// pgSecretEnv are the variables PostgreSQL's client (pgx) reads a password
// or a key from: a station on a shared board may be given its password
// this way, and no agent should inherit it.
var pgSecretEnv = []string{"PGPASSFILE", "PGPASSWORD", "PGSERVICEFILE", "PGSSLKEY", "PGSSLPASSWORD"}

// SecretEnv names the environment variables that hold a secret the station
// reads — every source's token_env, the [phone] table's, PostgreSQL's password variables on a
// shared board — and BUILDSTATION_TOKEN, which a station started from a
// session would otherwise pass on. Sessions never inherit them: an agent
// whose prompt is an issue's text must not be able to print the token that
// imports issues (docs/security.md, "Secrets stay out of sessions").
// Sorted, each name once.
func (c *Config) SecretEnv() []string {
	out := []string{"BUILDSTATION_TOKEN"}
	for _, s := range c.Sources {
		if s.TokenEnv != "" {
			out = append(out, s.TokenEnv)
		}
	}
	if c.Phone.TokenEnv != "" {
		out = append(out, c.Phone.TokenEnv)
	}
	if c.Shared() {
		out = append(out, pgSecretEnv...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
