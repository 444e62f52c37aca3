package station

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestAgentEnvDropsWhatPointsIntoTheHome(t *testing.T) {
	env := []string{"BUILDSTATION_HOME=/h/home", "PWD=/h/home", "OLDPWD=/h/home/logs", "PATH=/usr/bin:/h/home/bin", "X=--cfg=/h/home/",
		"HOME=/h", "XDG_CACHE_HOME=/h/home-cache", "BUILDSTATION_STATION=a", "PATH2=/usr/bin:/h/homework"}
	got := agentEnv(env, "/h/home")
	want := []string{"HOME=/h", "XDG_CACHE_HOME=/h/home-cache", "BUILDSTATION_STATION=a", "PATH2=/usr/bin:/h/homework"}
	if !slices.Equal(got, want) {
		t.Fatalf("agentEnv = %q, want %q", got, want)
	}
}

// The station's own folder leads the PATH a session inherits, ahead of
// the PATH in the environment the wiring hands in (the first one, as
// os.Getenv reads it).
func TestSelfEnvPutsTheStationFirstOnPath(t *testing.T) {
	self := filepath.Join("opt", "bs", "buildstation")
	got := selfEnv(self, []string{"HOME=/h", "PATH=/usr/bin", "PATH=/late"})
	want := []string{"BUILDSTATION_BIN=" + self, "PATH=" + filepath.Dir(self) + string(filepath.ListSeparator) + "/usr/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("selfEnv = %q, want %q", got, want)
	}
	if got := selfEnv(self, nil); !slices.Equal(got, []string{"BUILDSTATION_BIN=" + self, "PATH=" + filepath.Dir(self)}) {
		t.Errorf("selfEnv with no PATH = %q", got)
	}
	if selfEnv("", []string{"PATH=/usr/bin"}) != nil {
		t.Error("selfEnv with no executable added something")
	}
}
