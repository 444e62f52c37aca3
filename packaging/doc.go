// Package packaging holds no code: its tests install and assemble the
// program as a person or a release gets it. `make install` puts the
// command line and the app side by side (TestMakeInstall);
// packaging/macos/bundle.sh assembles Build Station.app from built
// binaries, as scripts/package.sh does on a Mac (TestMacBundle).
package packaging
