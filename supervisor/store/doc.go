// Package store keeps the station's board in one SQLite file (station.db)
// through the pure-Go modernc.org/sqlite driver, so the station still builds
// with CGO_ENABLED=0.
//
// The database runs in WAL mode with synchronous=FULL: every method that
// changes state is one BEGIN IMMEDIATE transaction, and once it returns nil
// the change survives a kill -9 of the station, and a power loss too. The
// schema is versioned (table schema_version) and migrated forward at Open.
package store
