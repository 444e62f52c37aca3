package proctree

// Current reads the live process table from /proc.
func Current() (map[int]Proc, error) { return Snapshot(DefaultRoot) }
