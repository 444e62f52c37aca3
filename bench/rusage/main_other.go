//go:build !linux

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "rusage: make bench runs on Linux only")
	os.Exit(2)
}
