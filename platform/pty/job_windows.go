package pty

import (
	"errors"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// newJob makes a Job Object with KILL_ON_JOB_CLOSE: every process the
// agent starts is in the job too, TerminateJobObject ends them all at once
// (the Windows counterpart of a process group), and closing the last handle
// (Close, or the station dying) ends the tree as well, so no agent outlives
// the station.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION (winnt.h); times
// are in 100 ns units.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// jobCPU is the CPU time of every process that ever ran in the job,
// including those that have exited.
func jobCPU(job windows.Handle) (time.Duration, error) {
	if job == 0 {
		return 0, errors.New("no job object")
	}
	var info jobAccounting
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, err
	}
	return cpuTime(info.TotalUserTime, info.TotalKernelTime), nil
}

// terminate ends one process by pid; a pid already gone is not an error.
func terminate(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		if errors.Is(err, windows.ERROR_INVALID_PARAMETER) { // no such process
			return nil
		}
		return err
	}
	defer windows.CloseHandle(h)
	return terminateHandle(h)
}

// terminateHandle ends a process we hold a handle to.
func terminateHandle(h windows.Handle) error {
	if err := windows.TerminateProcess(h, 1); err != nil && !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return err
	}
	// ACCESS_DENIED from TerminateProcess means it is already exiting.
	return nil
}
