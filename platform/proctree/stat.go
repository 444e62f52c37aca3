package proctree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultRoot is where Linux mounts the process table.
const DefaultRoot = "/proc"

// Snapshot reads every <root>/<pid>/stat once and returns the table by pid.
// root is a parameter so tests can point it at a synthetic tree; "" means
// DefaultRoot. Processes that exit while it reads, and files it cannot
// parse, are skipped: the table is a moment's view, never exact.
func Snapshot(root string) (map[int]Proc, error) {
	if root == "" {
		root = DefaultRoot
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("read process table: %w", err)
	}
	procs := make(map[int]Proc, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, e.Name(), "stat"))
		if err != nil {
			continue
		}
		p, err := ParseStat(data)
		if err != nil || p.PID != pid {
			continue
		}
		procs[pid] = p
	}
	return procs, nil
}

// ParseStat parses one /proc/<pid>/stat line (see proc(5)).
//
// The command name sits in parentheses and may itself hold spaces and
// parentheses ("a) (b"), so the fields after it are found from the LAST ')'.
func ParseStat(data []byte) (Proc, error) {
	open := bytes.IndexByte(data, '(')
	closing := bytes.LastIndexByte(data, ')')
	if open < 0 || closing < open {
		return Proc{}, errors.New("parse stat: no command name")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(data[:open])))
	if err != nil {
		return Proc{}, fmt.Errorf("parse stat: pid: %w", err)
	}
	// Fields after the name, numbered from 0 (= field 3, state, in proc(5)).
	f := bytes.Fields(data[closing+1:])
	const (
		fState, fPPID, fPGID, fSession   = 0, 1, 2, 3
		fUTime, fSTime, fCUTime, fCSTime = 11, 12, 13, 14
		fStartTime                       = 19
	)
	if len(f) <= fStartTime || len(f[fState]) != 1 {
		return Proc{}, fmt.Errorf("parse stat %d: %d fields after the name, want more than %d", pid, len(f), fStartTime)
	}
	p := Proc{PID: pid, State: f[fState][0], Comm: string(data[open+1 : closing])}
	ints := []struct {
		dst *int
		i   int
	}{{&p.PPID, fPPID}, {&p.PGID, fPGID}, {&p.Session, fSession}}
	for _, x := range ints {
		if *x.dst, err = strconv.Atoi(string(f[x.i])); err != nil {
			return Proc{}, fmt.Errorf("parse stat %d: field %d: %w", pid, x.i+3, err)
		}
	}
	ticks := []struct {
		dst *uint64
		i   int
	}{{&p.UTime, fUTime}, {&p.STime, fSTime}, {&p.CUTime, fCUTime}, {&p.CSTime, fCSTime}, {&p.StartTime, fStartTime}}
	for _, x := range ticks {
		// cutime and cstime are signed in the kernel's format (long); a
		// negative value never occurs in practice, so it parses as an error.
		if *x.dst, err = strconv.ParseUint(string(f[x.i]), 10, 64); err != nil {
			return Proc{}, fmt.Errorf("parse stat %d: field %d: %w", pid, x.i+3, err)
		}
	}
	return p, nil
}
