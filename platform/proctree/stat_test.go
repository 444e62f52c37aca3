package proctree

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// statLine builds a proc(5) stat line with the given identity and times;
// the other fields are plausible constants.
func statLine(pid int, comm string, state byte, ppid, pgid, sid int, ut, st, cut, cst, start uint64) string {
	return itoa(pid) + " (" + comm + ") " + string(state) + " " + itoa(ppid) + " " + itoa(pgid) + " " + itoa(sid) +
		" 34816 1234 4194560 100 0 0 0 " + utoa(ut) + " " + utoa(st) + " " + utoa(cut) + " " + utoa(cst) +
		" 20 0 1 0 " + utoa(start) + " 2408448 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n"
}

func itoa(i int) string    { return strconv.Itoa(i) }
func utoa(u uint64) string { return strconv.FormatUint(u, 10) }

// fakeProc writes a synthetic /proc: pid → stat content.
func fakeProc(t *testing.T, stats map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range stats {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if content != "" {
			if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func TestSnapshotSyntheticProc(t *testing.T) {
	root := fakeProc(t, map[string]string{
		"1":    statLine(1, "init", 'S', 0, 1, 1, 5, 6, 7, 8, 1),
		"100":  statLine(100, "claude", 'S', 1, 100, 100, 10, 20, 30, 40, 500),
		"101":  statLine(101, "weird) (name", 'R', 100, 100, 100, 1, 2, 3, 4, 501),
		"102":  statLine(102, "sh", 'S', 101, 100, 100, 0, 0, 0, 0, 502),
		"103":  statLine(103, "setsid sleep", 'S', 102, 103, 103, 0, 0, 0, 0, 503),
		"104":  statLine(104, "orphan", 'Z', 1, 100, 100, 0, 0, 0, 0, 504),
		"200":  statLine(200, "other", 'S', 1, 200, 200, 0, 0, 0, 0, 600),
		"self": statLine(1, "init", 'S', 0, 1, 1, 0, 0, 0, 0, 1),       // not a pid: skipped
		"300":  "300 (truncated) S 1",                                  // unparsable: skipped
		"301":  "",                                                     // vanished: no stat
		"302":  statLine(999, "mismatch", 'S', 1, 1, 1, 0, 0, 0, 0, 1), // pid disagrees: skipped
	})
	procs, err := Snapshot(root)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for pid := range procs {
		pids = append(pids, pid)
	}
	slices.Sort(pids)
	if want := []int{1, 100, 101, 102, 103, 104, 200}; !slices.Equal(pids, want) {
		t.Fatalf("pids = %v, want %v", pids, want)
	}

	want := Proc{PID: 101, PPID: 100, PGID: 100, Session: 100, State: 'R',
		UTime: 1, STime: 2, CUTime: 3, CSTime: 4, StartTime: 501, Comm: "weird) (name"}
	if got := procs[101]; got != want {
		t.Errorf("procs[101] = %+v\nwant %+v", got, want)
	}
	if !procs[104].Zombie() || procs[100].Zombie() {
		t.Errorf("Zombie: 104=%v 100=%v, want true false", procs[104].Zombie(), procs[100].Zombie())
	}

	if got := Children(procs)[100]; !slices.Equal(got, []int{101}) {
		t.Errorf("Children[100] = %v, want [101]", got)
	}
	if got := DescendantsOf(procs, 100); !slices.Equal(got, []int{101, 102, 103}) {
		t.Errorf("DescendantsOf(100) = %v, want [101 102 103]", got)
	}
	// Family adds the orphan still in the group (reparented to init).
	if got := Family(procs, 100); !slices.Equal(got, []int{101, 102, 103, 104}) {
		t.Errorf("Family(100) = %v, want [101 102 103 104]", got)
	}
}

func TestSnapshotMissingRoot(t *testing.T) {
	if _, err := Snapshot(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("Snapshot of a missing root: want an error")
	}
}

func TestParseStatRejects(t *testing.T) {
	for _, line := range []string{
		"",
		"12 no-parens S 1 1 1",
		"x (sh) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		"12 (sh) S 1 1 1",
		"12 (sh) S one 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	} {
		if p, err := ParseStat([]byte(line)); err == nil {
			t.Errorf("ParseStat(%q) = %+v, want an error", line, p)
		}
	}
}

func TestDescendantsOfCycle(t *testing.T) {
	// A recycled pid on Windows can make parent links loop; the walk ends.
	procs := map[int]Proc{
		10: {PID: 10, PPID: 11},
		11: {PID: 11, PPID: 10},
		12: {PID: 12, PPID: 11},
	}
	if got := DescendantsOf(procs, 10); !slices.Equal(got, []int{11, 12}) {
		t.Errorf("DescendantsOf(10) = %v, want [11 12]", got)
	}
}
