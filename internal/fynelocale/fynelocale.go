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
