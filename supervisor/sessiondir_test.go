package supervisor

import (
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
