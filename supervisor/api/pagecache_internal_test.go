package api

import "testing"

// A listing computed under an older generation, finishing after one under
// a newer generation was kept, does not drop the newer answers: the
// generation only grows, so the older answer could never be served again.
func TestKeptPagesStayNewest(t *testing.T) {
	var p pages
	p.put(6, "q", keptPage{body: []byte("new")})
	p.put(5, "q", keptPage{body: []byte("old")})
	p.put(5, "other", keptPage{body: []byte("old")})
	if k, ok := p.get(6, "q"); !ok || string(k.body) != "new" {
		t.Errorf("after a late older answer, generation 6's page is %q %v; want the kept new one", k.body, ok)
	}
	if _, ok := p.get(5, "other"); ok {
		t.Error("an answer of an older generation was kept")
	}
}
