// Package clone copies files and folders the cheapest way the OS and the
// file system allow: a copy-on-write clone where there is one (Linux's
// FICLONE on Btrfs, XFS and bcachefs; macOS's clonefile on APFS, a whole
// folder in one call; Windows' CopyFileW, which clones blocks on ReFS and
// Dev Drive), and a kernel-side copy otherwise. It never overwrites a file
// that is already there. The worktrees use it to bring a project's ignored
// files (.worktreeinclude: a node_modules, a .env) into a new worktree.
package clone
