//go:build !(linux && cgo)

package main

import (
	"fmt"
	"os"
)

// The tray bench drives Fyne's GLFW driver under Xvfb: Linux with cgo only.
func main() {
	fmt.Fprintln(os.Stderr, "bench/tray runs on Linux with cgo (Xvfb and Fyne's GLFW driver); nothing to measure here")
	os.Exit(2)
}
