package desktop

import "testing"

func TestActivationFor(t *testing.T) {
	for _, tt := range []struct {
		major int
		want  activationSteps
	}{
		{12, activationSteps{}},
		{13, activationSteps{}},
		{14, activationSteps{yield: true, cooperative: true}},
		{15, activationSteps{yield: true, cooperative: true}},
		{26, activationSteps{yield: true, cooperative: true}},
	} {
		if got := activationFor(tt.major); got != tt.want {
			t.Errorf("activationFor(%d) = %+v, want %+v", tt.major, got, tt.want)
		}
	}
}
