package proctree

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// parsePS reads "pid ppid pgid stat comm" lines; comm is last because it
// may hold spaces. stat's first letter is the state ('Z' for a zombie).
func parsePS(out []byte) map[int]Proc {
	procs := make(map[int]Proc)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		var n [3]int
		ok := true
		for i := range n {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				ok = false
				break
			}
			n[i] = v
		}
		if !ok {
			continue
		}
		procs[n[0]] = Proc{PID: n[0], PPID: n[1], PGID: n[2], State: f[3][0], Comm: strings.Join(f[4:], " ")}
	}
	return procs
}
