// Package agentfind finds an agent CLI where its installer puts it when
// the command is not on the station's PATH, and tells a program from a
// placeholder an unfinished install left.
//
// A logon task, a LaunchAgent or a tray opened from the Finder gets a PATH
// without the folders installers add in a login shell's profile: Claude
// Code's native installer puts claude in ~/.local/bin (Windows:
// %USERPROFILE%\.local\bin\claude.exe), its older local install in
// ~/.claude/local, npm in its global prefix, Homebrew in /opt/homebrew/bin.
// Find looks in those folders, in that order, and says which it picked.
//
// npm run with install scripts blocked leaves Claude Code's bin\claude.exe
// as a text placeholder of a few hundred bytes: Windows then says "not a
// valid application", macOS and Linux "exec format error". Check reads a
// program's first bytes (PE, ELF, Mach-O or #!) and says how to finish
// the install instead.
//
// Everything is pure over FS and Env, so the decisions are tested for
// every OS on any OS with a fake file tree.
package agentfind
