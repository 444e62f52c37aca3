// Command hello is the CLI start figure's baseline (make bench): the
// smallest Go program that prints a line, built as the command line is
// (CGO_ENABLED=0), so the figure's ratio is what our start costs above Go's
// own in the same run, on the same load.
package main
