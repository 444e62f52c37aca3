package cli

// PrintsOnly says whether args (a leading --home skipped) ask only for
// something printed: the version or help. The Windows GUI face attaches
// to its parent's console for these alone (AttachParentConsole); a tray,
// a station or a link keeps no console.
func PrintsOnly(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--home" || a == "-home":
			i++
		case len(a) > 7 && a[:7] == "--home=", len(a) > 6 && a[:6] == "-home=":
		default:
			switch a {
			case "--version", "-v", "version", "help", "--help", "-h":
				return true
			}
			return false
		}
	}
	return false
}
