// Package packaging holds no code: its tests install the program as a
// person gets it, with the Makefile: `make install` puts the command line
// and the app side by side (TestMakeInstall).
package packaging
