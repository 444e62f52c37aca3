// Package screentext turns a terminal program's raw output into the text a
// person read on its screen: it plays the bytes through a VT emulator and
// prints each line once it has scrolled off (it can no longer change), then
// the last screen. `buildstation logs` prints transcripts with it.
//
// It is its own package, linked by buildstation-app and not by the light
// command line: the emulator and its Unicode tables cost every start of the
// command line about a millisecond of initialisation (make bench's CLI
// start line), and only logs needs them; the command line hands logs to
// the app (cli.Deps.Render).
package screentext
