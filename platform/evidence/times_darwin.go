package evidence

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/buildstation/buildstation/platform/proctree"
)

// proc_pid_rusage(pid, RUSAGE_INFO_V2, &info) is libproc's wrapper around
// the proc_info system call (PROC_INFO_CALL_PIDRUSAGE); calling the system
// call directly keeps the station free of cgo.
const (
	procInfoCallPidRusage = 9
	rusageInfoV2          = 2
)

// rusageInfoV2 is struct rusage_info_v2 (<sys/resource.h>). Its times are
// in Mach absolute time units, not nanoseconds (see timebase).
type rusageInfoV2Struct struct {
	UUID                [16]byte
	UserTime            uint64
	SystemTime          uint64
	PkgIdleWkups        uint64
	InterruptWkups      uint64
	Pageins             uint64
	WiredSize           uint64
	ResidentSize        uint64
	PhysFootprint       uint64
	ProcStartAbstime    uint64
	ProcExitAbstime     uint64
	ChildUserTime       uint64
	ChildSystemTime     uint64
	ChildPkgIdleWkups   uint64
	ChildInterruptWkups uint64
	ChildPageins        uint64
	ChildElapsedAbstime uint64
	DiskioBytesread     uint64
	DiskioByteswritten  uint64
}

// osTimes reads a process's own CPU and its reaped children's, as on
// Linux, from proc_pid_rusage. A process of another user is refused
// (EPERM): it is no agent's descendant anyway.
func osTimes(p proctree.Proc) (procTimes, bool) {
	var ri rusageInfoV2Struct
	_, _, errno := unix.Syscall6(unix.SYS_PROC_INFO, procInfoCallPidRusage, uintptr(p.PID), rusageInfoV2,
		0, uintptr(unsafe.Pointer(&ri)), 0)
	if errno != 0 {
		return procTimes{}, false
	}
	num, den := timebase()
	return darwinTimes(ri.UserTime, ri.SystemTime, ri.ChildUserTime, ri.ChildSystemTime, ri.ProcStartAbstime, num, den), true
}

var (
	timebaseOnce     sync.Once
	tbNumer, tbDenom uint64
)

// timebase is mach_timebase_info's ratio (nanoseconds per Mach time unit
// = numer/denom) without cgo: hw.tbfrequency is the timebase's frequency
// in Hz (24 MHz on Apple silicon, where the ratio is 125/3; 1 GHz on
// Intel, 1/1).
func timebase() (numer, denom uint64) {
	timebaseOnce.Do(func() {
		tbNumer, tbDenom = timebaseFor(0)
		if f, err := unix.SysctlUint64("hw.tbfrequency"); err == nil {
			tbNumer, tbDenom = timebaseFor(f)
		}
	})
	return tbNumer, tbDenom
}
