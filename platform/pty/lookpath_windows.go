package pty

import "os"

// lookPath finds file on the session's PATH with PATHEXT (see winLookPath).
func lookPath(file, path, pathext string) (string, error) {
	return winLookPath(file, path, pathext, isFile)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
