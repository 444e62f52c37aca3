// Package fynelocale keeps Fyne from printing "Error parsing user locale
// C" on every run of the binary, CLI commands included, when the locale is
// C.UTF-8 or POSIX.UTF-8 (usual in containers and CI): Fyne's lang
// package reads the locale in its init and logs to stderr when it cannot
// parse "C".
//
// Import it (blank) from the file that links Fyne, and call Restore from
// that package's init. By the spec's init order (packages by import path,
// each after its imports) this package, which imports only os and
// strings, initialises before github.com/jeandeaual/go-locale and so
// before Fyne's lang.
package fynelocale

import (
	"os"
	"strings"
)

var set bool

func init() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = os.Getenv(k); loc != "" {
			break
		}
	}
	if strings.HasPrefix(loc, "C.") || strings.HasPrefix(loc, "POSIX.") {
		set = os.Setenv("LANGUAGE", "en") == nil
	}
}

// Restore undoes init's LANGUAGE, so that the station's sessions get the
// environment the user had.
func Restore() {
	if set {
		os.Unsetenv("LANGUAGE")
		set = false
	}
}
