// Package stationfs keeps a station's files on disk: the transcripts and
// prompt records in the home's logs folder, each session's private folder
// outside the home, and config.toml. It implements supervisor.Files (by
// shape: it imports nothing of the engine), with the locations and modes
// docs/contract.md ("Files") and docs/security.md promise.
package stationfs
