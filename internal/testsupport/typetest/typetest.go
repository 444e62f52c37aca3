package typetest

// Program is a shell script that echoes nothing and prints each line it
// reads as "hex:<the line's bytes in hex>:end".
const Program = `stty -echo; while IFS= read -r x; do printf 'hex:'; printf '%s' "$x" | od -An -v -tx1 | tr -d ' \n'; echo ':end'; done`

// Lines are the lines to type, each followed by Enter.
func Lines() []string {
	var ascii []byte
	for c := byte(0x20); c < 0x7f; c++ {
		ascii = append(ascii, c)
	}
	return []string{string(ascii), "hello;", ";", `a\;`, "ü → 日本語 🙂;", "x;;"}
}
