// Package gitwt gives each task its own git worktree on branch bs/<task-id>,
// runs a project's gate on single commits, and resets a blocked task to its
// last green commit without throwing work away. It implements
// supervisor.Workspaces.
//
// It drives the real git CLI (git -C <dir> …) rather than a Go library, so
// the user's git config, credentials, filters and hooks apply exactly as
// they do when the user runs git by hand.
//
// Layout: a task's worktree is <WorktreeRoot>/<task-id>, by default
// <project>/.buildstation/worktrees/<task-id>, and the root is listed in
// the repo's .git/info/exclude so it never shows as untracked. A gate never
// runs in the live worktree: it gets a throwaway detached checkout of the
// one commit it judges, so the verdict belongs to that commit and not to
// whatever an agent left lying around.
package gitwt
