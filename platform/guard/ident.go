package guard

import "github.com/buildstation/buildstation/platform/proctree"

// Ident identifies process pid beyond its number (what ident reads on this
// OS: its start time on Linux, else its parent and name). "" when it is
// gone.
func Ident(pid int) string {
	all, err := proctree.Current()
	if err != nil {
		return ""
	}
	return ident(all, pid)
}
