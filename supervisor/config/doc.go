// Package config reads and validates config.toml: the station's projects,
// agent profiles and watchdog windows. It refuses a bad file as a whole, with
// one error naming the file, the line and the key, so a typo never half-applies.
package config
