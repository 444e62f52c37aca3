// Package config reads and validates config.toml: the station's projects,
// agent profiles and watchdog windows. It refuses a bad file as a whole, with
// one error naming the file, the line and the key, so a typo never half-applies.
//
// Each key is declared once, in Keys (keys.go): its name, type, default,
// what it does and how its value is read and checked. Validation, the
// defaults, the first-run config.toml, docs/configuration.md, `project set`
// and the dashboard's Edit project all read that declaration.
package config
