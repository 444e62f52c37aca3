package pty

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ErrNoConPTY is Spawn's error on a Windows without pseudo consoles.
var ErrNoConPTY = errors.New("ConPTY needs Windows 10 1809 or later")

var (
	kernel32                  = windows.NewLazySystemDLL("kernel32.dll")
	procCreatePseudoConsole   = kernel32.NewProc("CreatePseudoConsole")
	procUpdateProcThreadAttr  = kernel32.NewProc("UpdateProcThreadAttribute")
	procClosePseudoConsoleRaw = kernel32.NewProc("ClosePseudoConsole")
)

// IsConPtyAvailable reports whether this Windows has pseudo consoles
// (Windows 10 1809, build 17763, and later): kernel32 exports
// CreatePseudoConsole. x/sys/windows would panic calling a missing proc, so
// every ConPTY call here is behind this check.
func IsConPtyAvailable() bool {
	return procCreatePseudoConsole.Find() == nil && procClosePseudoConsoleRaw.Find() == nil
}

// noConPTY names the running version in the error, so a user sees why.
func noConPTY() error {
	v := windows.RtlGetVersion()
	return fmt.Errorf("%w (this is Windows %d.%d build %d)", ErrNoConPTY, v.MajorVersion, v.MinorVersion, v.BuildNumber)
}

// console is a started agent: its pseudo console, our ends of the console's
// pipes, the process and the job that holds its tree.
type console struct {
	hpc     windows.Handle
	in      *os.File // we write, the console reads: the agent's keyboard
	out     *os.File // the console writes, we read: the agent's screen
	process windows.Handle
	pid     int

	jobMu sync.Mutex // job is read by JobCPU and Stop while Close may close it
	job   windows.Handle
}

// startConsole starts app with cmdline in a new pseudo console of cols×rows,
// suspended; puts it in a new Job Object (KILL_ON_JOB_CLOSE) before it can
// run a single instruction, so every process it ever starts is in the job
// too; then lets it run. env is an envBlock; dir may be empty.
func startConsole(app, cmdline, dir string, env []uint16, cols, rows uint16) (c *console, err error) {
	if !IsConPtyAvailable() {
		return nil, noConPTY()
	}
	c = &console{}
	inR, outW, err := c.pipes()
	if err != nil {
		return nil, err
	}
	// The console holds its own copies of its pipe ends; ours must go, or
	// the output pipe would never break after ClosePseudoConsole.
	defer windows.CloseHandle(inR)
	defer windows.CloseHandle(outW)
	defer func() {
		if err != nil {
			// Our read end first: before Windows 11 24H2 ClosePseudoConsole
			// waits until the output is drained, and nobody reads it yet.
			if c.out != nil {
				_ = c.out.Close()
				c.out = nil
			}
			c.closeConsole()
			c.release() // the input pipe, the process and the job
		}
	}()

	if err := windows.CreatePseudoConsole(windows.Coord{X: int16(cols), Y: int16(rows)}, inR, outW, 0, &c.hpc); err != nil {
		return nil, fmt.Errorf("create pseudo console: %w", err)
	}
	attrs, err := consoleAttrs(c.hpc)
	if err != nil {
		return nil, err
	}
	defer attrs.Delete()
	si := &windows.StartupInfoEx{ProcThreadAttributeList: attrs.List()}
	si.Cb = uint32(unsafe.Sizeof(*si))
	// Null standard handles: without this flag a child of a station whose
	// own stdio is redirected (a service, a log file) would inherit those
	// instead of the console's.
	si.Flags = windows.STARTF_USESTDHANDLES
	if err := c.spawnInJob(app, cmdline, dir, env, si); err != nil {
		return nil, err
	}
	return c, nil
}

// pipes makes the console's two pipes, keeps our ends (c.in, c.out) and
// returns the console's ends.
func (c *console) pipes() (inR, outW windows.Handle, err error) {
	var inW, outR windows.Handle
	if err := windows.CreatePipe(&inR, &inW, nil, 0); err != nil {
		return 0, 0, fmt.Errorf("create console input pipe: %w", err)
	}
	if err := windows.CreatePipe(&outR, &outW, nil, 0); err != nil {
		windows.CloseHandle(inR)
		windows.CloseHandle(inW)
		return 0, 0, fmt.Errorf("create console output pipe: %w", err)
	}
	c.in = os.NewFile(uintptr(inW), "conpty-in")
	c.out = os.NewFile(uintptr(outR), "conpty-out")
	return inR, outW, nil
}

// consoleAttrs is the attribute list that puts a new process in the
// pseudo console hpc; the caller deletes it.
func consoleAttrs(hpc windows.Handle) (*windows.ProcThreadAttributeListContainer, error) {
	attrs, err := windows.NewProcThreadAttributeList(1)
	if err != nil {
		return nil, fmt.Errorf("create attribute list: %w", err)
	}
	// The attribute's value is the HPCON itself, not a pointer to it; the
	// raw call avoids turning a handle into an unsafe.Pointer.
	if r, _, e := procUpdateProcThreadAttr.Call(uintptr(unsafe.Pointer(attrs.List())), 0,
		windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, uintptr(hpc), unsafe.Sizeof(hpc), 0, 0); r == 0 {
		attrs.Delete()
		return nil, fmt.Errorf("attach pseudo console: %w", e)
	}
	return attrs, nil
}

// spawnInJob starts the process suspended, puts it in a new job before it
// runs an instruction, then resumes it. What it made is in c for the
// caller's cleanup.
func (c *console) spawnInJob(app, cmdline, dir string, env []uint16, si *windows.StartupInfoEx) error {
	appp, err := windows.UTF16PtrFromString(app)
	if err != nil {
		return err
	}
	linep, err := windows.UTF16PtrFromString(cmdline)
	if err != nil {
		return err
	}
	var dirp *uint16
	if dir != "" {
		if dirp, err = windows.UTF16PtrFromString(dir); err != nil {
			return err
		}
	}
	if c.job, err = newJob(); err != nil {
		return fmt.Errorf("create job object: %w", err)
	}
	var pi windows.ProcessInformation
	flags := uint32(windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_UNICODE_ENVIRONMENT | windows.CREATE_SUSPENDED)
	if err := windows.CreateProcess(appp, linep, nil, nil, false, flags, &env[0], dirp, &si.StartupInfo, &pi); err != nil {
		return err
	}
	defer windows.CloseHandle(pi.Thread)
	c.process, c.pid = pi.Process, int(pi.ProcessId)
	if err := windows.AssignProcessToJobObject(c.job, pi.Process); err != nil {
		_ = windows.TerminateProcess(pi.Process, 1)
		return fmt.Errorf("put the agent in a job object: %w", err)
	}
	if _, err := windows.ResumeThread(pi.Thread); err != nil {
		_ = windows.TerminateJobObject(c.job, 1)
		return fmt.Errorf("resume the agent: %w", err)
	}
	return nil
}

// closeConsole closes the pseudo console: conhost ends, and the output pipe
// breaks once its last bytes are read. Before Windows 11 24H2 the call
// blocks until the output is drained, so a reader must be running.
func (c *console) closeConsole() {
	if c.hpc != 0 {
		windows.ClosePseudoConsole(c.hpc)
	}
}

// closeJob closes the job: KILL_ON_JOB_CLOSE ends what is left of the tree.
func (c *console) closeJob() {
	c.jobMu.Lock()
	defer c.jobMu.Unlock()
	if c.job != 0 {
		_ = windows.CloseHandle(c.job)
		c.job = 0
	}
}

// terminateJob ends every process in the job now.
func (c *console) terminateJob() error {
	c.jobMu.Lock()
	defer c.jobMu.Unlock()
	if c.job == 0 {
		return nil
	}
	return windows.TerminateJobObject(c.job, 1)
}

// cpu reads the job's accounting (see jobCPU).
func (c *console) cpu() (time.Duration, error) {
	c.jobMu.Lock()
	defer c.jobMu.Unlock()
	return jobCPU(c.job)
}

// release closes the remaining handles (after closeJob).
func (c *console) release() {
	if c.in != nil {
		_ = c.in.Close()
	}
	if c.out != nil {
		_ = c.out.Close()
	}
	if c.process != 0 {
		_ = windows.CloseHandle(c.process)
	}
	c.closeJob()
}
