package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// generational is a station whose board can tell whether it changed
// (supervisor.Generational): *station.Station on its own SQLite board.
type generational interface {
	BoardGeneration(ctx context.Context) (uint64, bool)
}

// Bounds of the kept answers: a few pages of the lists clients poll (a
// tray, a dashboard, `task ls` in a loop), never more than a few MB.
const (
	maxKeptPages = 16
	maxKeptBytes = 4 << 20
)

// pages keeps the encoded answers of recent task listings under the board
// generation read before each was computed. Many clients listing an
// unchanged board then cost the station an HTTP answer each instead of a
// query, a scan of every row and an encoding; any commit to the board (the
// station's own, or another process's) changes the generation and so
// drops them all.
type pages struct {
	mu    sync.Mutex
	gen   uint64
	kept  map[string]keptPage
	bytes int
}

type keptPage struct {
	body []byte
	next string // the next page's cursor, "" on the last
}

// generation is the board's generation; keep is false when the station
// cannot tell it, and then nothing may be kept.
func (s *Server) generation(ctx context.Context) (gen uint64, keep bool) {
	g, ok := s.areas.Tasks.(generational)
	if !ok {
		return 0, false
	}
	return g.BoardGeneration(ctx)
}

func (p *pages) get(gen uint64, query string) (keptPage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen {
		return keptPage{}, false
	}
	k, ok := p.kept[query]
	return k, ok
}

// put keeps k, computed at generation gen, unless a newer generation's
// answers are kept already (a generation only grows, so an older answer
// could never be served) or the bounds are reached.
func (p *pages) put(gen uint64, query string, k keptPage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen < p.gen && p.kept != nil {
		return
	}
	if p.gen != gen || p.kept == nil {
		p.gen, p.kept, p.bytes = gen, map[string]keptPage{}, 0
	}
	if _, ok := p.kept[query]; ok || len(p.kept) >= maxKeptPages || p.bytes+len(k.body) > maxKeptBytes {
		return
	}
	p.kept[query] = k
	p.bytes += len(k.body)
}

// encodePage is v as writeJSON writes it.
func encodePage(v any) []byte {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	return b.Bytes()
}

// writePage answers with a listing's encoded page.
func writePage(w http.ResponseWriter, k keptPage) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(k.body)))
	if k.next != "" {
		h.Set(apitype.HeaderNextAfter, k.next)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(k.body)
}
