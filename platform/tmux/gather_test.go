//go:build linux

package tmux

import (
	"io"
	"os"
	"slices"
	"testing"
	"time"
)

// script is a reader that answers each read with the next of its pieces,
// each taking its time on the test's clock.
type script struct {
	clock  *time.Time
	pieces []piece
}

type piece struct {
	n    int
	took time.Duration
}

func (s *script) Read(b []byte) (int, error) {
	if len(s.pieces) == 0 {
		return 0, io.EOF
	}
	p := s.pieces[0]
	s.pieces = s.pieces[1:]
	*s.clock = s.clock.Add(p.took)
	return min(p.n, len(b)), nil
}

// A read waits before it only after a flood's read: one whose data was
// waiting and that did not fill the buffer. Output that trickles (each
// read blocked for it) or that fills the buffer is read at once.
func TestGathererWaitsOnlyInAFlood(t *testing.T) {
	clock := time.Unix(0, 0)
	var slept []int // the reads (0-based) a wait came before
	reads := 0
	g := &gatherer{
		r: &script{clock: &clock, pieces: []piece{
			{4 << 10, 50 * time.Millisecond}, // 0: a line after a quiet spell: blocked for it
			{4 << 10, 10 * time.Microsecond}, // 1: more already there: a flood
			{60 << 10, 5 * time.Microsecond}, // 2: gathered
			{64 << 10, 5 * time.Microsecond}, // 3: fills the buffer: no wait after
			{64 << 10, 5 * time.Microsecond}, // 4: read at once, fills it again
			{1 << 10, 80 * time.Millisecond}, // 5: the flood is over; blocked for this
			{1 << 10, 90 * time.Millisecond}, // 6: a spinner's frame: no wait before
		}},
		now:   func() time.Time { return clock },
		sleep: func(d time.Duration) { slept = append(slept, reads); clock = clock.Add(d) },
	}
	b := make([]byte, 64<<10)
	for {
		if _, err := g.Read(b); err != nil {
			break
		}
		reads++
	}
	if want := []int{2, 3}; !slices.Equal(slept, want) {
		t.Errorf("waited before reads %v, want %v", slept, want)
	}
}

// Through a real pipe written in 4 KiB pieces as fast as it takes them,
// the gatherer takes many pieces a read: a reader woken for each costs
// more than the bytes.
func TestGathererTakesAFloodInFewReads(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const pieces = 4096
	go func() {
		defer w.Close()
		p := make([]byte, 4<<10)
		for range pieces {
			if _, err := w.Write(p); err != nil {
				return
			}
		}
	}()
	g := newGatherer(r)
	b := make([]byte, 64<<10)
	reads, total := 0, 0
	for {
		n, err := g.Read(b)
		total += n
		if err != nil {
			break
		}
		reads++
	}
	if total != pieces*4<<10 {
		t.Fatalf("read %d bytes, want %d", total, pieces*4<<10)
	}
	if reads > pieces/4 {
		t.Errorf("%d reads for %d pieces, want a quarter of that at most", reads, pieces)
	}
}
