// Package rig is test support for the end-to-end tests under e2e/: it builds
// the buildstation binary once per test binary, runs `buildstation daemon`
// as a subprocess on a temp home, drives it through the CLI and its --json
// output, and makes real git repos. It is imported only by _test files;
// nothing that ships depends on it. Unix only: it signals process groups.
package rig
