// Package atomicfile replaces a file whole or not at all: a reader sees the
// old file or the new one, never half of one, and a crash keeps one of the
// two. The station's own files (station.json, the token), the config a
// settings window edits and the service units an install writes all go
// through it.
package atomicfile
