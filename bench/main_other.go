//go:build !linux

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench: the benchmarks read /proc and run on Linux only")
	os.Exit(1)
}
