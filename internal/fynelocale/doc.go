// Package fynelocale keeps Fyne from printing "Error parsing user locale
// C" on every run of the binary, CLI commands included, when the locale is
// C.UTF-8 or POSIX.UTF-8 (usual in containers and CI): Fyne's lang
// package reads the locale in its init and logs to stderr when it cannot
// parse "C".
//
// Import it (blank) from the file that links Fyne, and call Restore from
// that package's init. By the spec's init order (packages by import path,
// each after its imports) this package, which imports only os and
// strings, initialises before github.com/jeandeaual/go-locale and so
// before Fyne's lang.
package fynelocale
