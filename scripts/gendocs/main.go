package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra/doc"

	"github.com/buildstation/buildstation/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/gendocs DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
	root := cli.Command()
	root.DisableAutoGenTag = true // no date: the pages change only when the commands do
	header := &doc.GenManHeader{Title: "BUILDSTATION", Section: "1", Source: "Build Station " + cli.Version, Manual: "Build Station"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
	fmt.Println("man pages in", dir)
}
