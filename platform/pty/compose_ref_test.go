package pty

import "strings"

// refCompose is windows.ComposeCommandLine written out for tests on every
// OS; compose_windows_test.go checks the two agree.
func refCompose(args []string) string {
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
		b.WriteString(refEscape(a))
	}
	return b.String()
}

func refEscape(s string) string {
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
