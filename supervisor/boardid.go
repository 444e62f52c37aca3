package supervisor

import "strings"

// ShortID writes a board id as six lower-case letters and digits, short
// enough for a branch name (bs/k3x9q2/t4) and plenty to tell boards apart
// on one repository.
func ShortID(n uint64) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	for range 6 {
		b.WriteByte(digits[n%36])
		n /= 36
	}
	return b.String()
}
