package proctree

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Current reads the live process table from a Toolhelp32 snapshot. Windows
// has no process groups or sessions in the unix sense, and never reparents:
// a PPID may name a parent that exited, or even a later process that reused
// its pid.
func Current() (map[int]Proc, error) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil, fmt.Errorf("read process table: %w", err)
	}
	defer windows.CloseHandle(snap)
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	procs := make(map[int]Proc)
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		pid := int(e.ProcessID)
		procs[pid] = Proc{PID: pid, PPID: int(e.ParentProcessID), Comm: windows.UTF16ToString(e.ExeFile[:])}
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return nil, fmt.Errorf("read process table: %w", err)
	}
	return procs, nil
}
