package tmux

import (
	"fmt"
	"unicode/utf8"
)

// keyCommands turns bytes typed into a session into one tmux command list
// (commands separated by ";" arguments) for the pane target:
//
//   - "\r" is the Enter key, as a terminal sends it; a TUI tells a typed
//     Enter from a pasted one by timing, and tmux delivers it as its own key;
//   - printable text, UTF-8 included, goes literally (send-keys -l), so a
//     word like "Enter" or "C-c" is typed, not taken for a key name; a ";"
//     that would end an argument goes by its hex code instead, because
//     tmux reads an argument ending in ";" as the end of a command (and
//     drops the ";"), whatever the flags;
//   - any other byte (control keys, escape sequences, broken UTF-8) goes by
//     its hex code (send-keys -H), byte for byte.
func keyCommands(target string, b []byte) []string {
	var args []string
	add := func(cmd ...string) {
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, cmd...)
	}
	for len(b) > 0 {
		switch {
		case b[0] == '\r':
			add("send-keys", "-t", target, "Enter")
			b = b[1:]
		case printable(b):
			n := 0
			for n < len(b) && printable(b[n:]) {
				_, size := utf8.DecodeRune(b[n:])
				n += size
			}
			lit := b[:n]
			semis := 0
			for semis < len(lit) && lit[len(lit)-1-semis] == ';' {
				semis++
			}
			if len(lit) > semis {
				add("send-keys", "-t", target, "-l", "--", string(lit[:len(lit)-semis]))
			}
			if semis > 0 {
				cmd := []string{"send-keys", "-t", target, "-H"}
				for range semis {
					cmd = append(cmd, "3b")
				}
				add(cmd...)
			}
			b = b[n:]
		default:
			cmd := []string{"send-keys", "-t", target, "-H"}
			for len(b) > 0 && b[0] != '\r' && !printable(b) {
				cmd = append(cmd, fmt.Sprintf("%02x", b[0]))
				b = b[1:]
			}
			add(cmd...)
		}
	}
	return args
}

// printable reports whether b starts with a printable character: a
// graphic ASCII byte, a space, or a whole, valid multi-byte UTF-8 rune.
func printable(b []byte) bool {
	c := b[0]
	if c < utf8.RuneSelf {
		return c >= 0x20 && c != 0x7f
	}
	r, size := utf8.DecodeRune(b)
	return r != utf8.RuneError || size > 1
}
