package evidence

import (
	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/platform/proctree"
)

// osTimes reads a process's own CPU time with GetProcessTimes. Windows
// keeps no reaped-children time: the session's Job Object (TreeCPU) counts
// exited processes instead. The creation time tells a process from a later
// one that reused its pid.
func osTimes(p proctree.Proc) (procTimes, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(p.PID))
	if err != nil {
		return procTimes{}, false
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return procTimes{}, false
	}
	return windowsTimes(filetime(kernel), filetime(user), uint64(filetime(created))), true
}

// filetime is a FILETIME as a count of 100 ns units.
func filetime(f windows.Filetime) int64 {
	return int64(f.HighDateTime)<<32 | int64(f.LowDateTime)
}
