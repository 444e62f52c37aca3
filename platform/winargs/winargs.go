package winargs

import "strings"

// EscapeArg quotes one argument (as windows.EscapeArg does).
func EscapeArg(s string) string {
	if s == "" {
		return `""`
	}
	if !strings.ContainsAny(s, "\"\\ \t") {
		return s
	}
	space := strings.ContainsAny(s, " \t")
	var b strings.Builder
	if space {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(s[i])
	}
	if space {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}

// ComposeCommandLine joins argv into one command line (as
// windows.ComposeCommandLine does): the program is quoted only when it must
// be, and may hold no quote; every other argument goes through EscapeArg.
func ComposeCommandLine(args []string) string {
	if len(args) == 0 {
		return ""
	}
	prog := args[0]
	quote := prog == ""
	for i := 0; i < len(prog); i++ {
		if prog[i] <= ' ' || prog[i] == '"' && i == 0 {
			quote = true
		}
	}
	if quote {
		prog = `"` + strings.ReplaceAll(prog, `"`, "") + `"`
	}
	var b strings.Builder
	b.WriteString(prog)
	for _, a := range args[1:] {
		b.WriteByte(' ')
		b.WriteString(EscapeArg(a))
	}
	return b.String()
}

// Split splits a command line the way CommandLineToArgvW and the MSVC
// runtime do (the 2008+ rules): what the program started from a line
// (a registry command, a task's arguments) receives. Tests read the lines
// this package and the installers write back with it.
func Split(s string) []string {
	prog, i := splitProgram(s)
	args := []string{prog}
	var cur strings.Builder
	inQuote, have := false, false
	for i < len(s) {
		c := s[i]
		switch {
		case (c == ' ' || c == '\t') && !inQuote:
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
			i++
		case c == '\\':
			i = backslashes(s, i, &cur)
			have = true
		case c == '"':
			if inQuote && i+1 < len(s) && s[i+1] == '"' {
				cur.WriteByte('"')
				i += 2
			} else {
				inQuote = !inQuote
				i++
			}
			have = true
		default:
			cur.WriteByte(c)
			have = true
			i++
		}
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}

// splitProgram reads argv[0], which ends at the first space outside quotes
// and has no escapes, and returns it with the index just past it.
func splitProgram(s string) (string, int) {
	var cur strings.Builder
	inQuote := false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			inQuote = !inQuote
			continue
		}
		if (c == ' ' || c == '\t') && !inQuote {
			break
		}
		cur.WriteByte(c)
	}
	return cur.String(), i
}

// backslashes reads a run of backslashes at s[i]: before a quote they
// halve, an odd one escaping the quote; elsewhere they are literal. It
// returns the index past what it read.
func backslashes(s string, i int, cur *strings.Builder) int {
	n := 0
	for i < len(s) && s[i] == '\\' {
		n++
		i++
	}
	if i < len(s) && s[i] == '"' {
		cur.WriteString(strings.Repeat(`\`, n/2))
		if n%2 == 1 {
			cur.WriteByte('"')
			i++
		}
		return i
	}
	cur.WriteString(strings.Repeat(`\`, n))
	return i
}
