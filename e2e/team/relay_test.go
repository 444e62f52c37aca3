//go:build linux

package team

import (
	"io"
	"net"
	"sync"
	"testing"
)

// relay forwards one station's connections to the server, and stands in
// for the network between them: pass, a black hole (connections accepted,
// nothing gets through either way, so every call hangs until its
// deadline), or a refusal (every connection cut at once).
type relay struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	mode   string // "pass", "hole" or "refuse"
	conns  map[net.Conn]bool
}

func newRelay(t *testing.T, target string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{ln: ln, target: target, mode: "pass", conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); r.cut() })
	go r.serve()
	return r
}

// Port is where stations connect.
func (r *relay) Port() int { return r.ln.Addr().(*net.TCPAddr).Port }

// Set changes the mode. Leaving a black hole or a refusal cuts every
// connection: what was swallowed cannot be replayed, as TCP would after a
// real partition, so the clients reconnect.
func (r *relay) Set(mode string) {
	r.mu.Lock()
	old := r.mode
	r.mode = mode
	r.mu.Unlock()
	if mode == "refuse" || old != "pass" && mode == "pass" {
		r.cut()
	}
}

func (r *relay) get() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mode
}

func (r *relay) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.conns {
		c.Close()
	}
	clear(r.conns)
}

func (r *relay) track(c net.Conn) {
	r.mu.Lock()
	r.conns[c] = true
	r.mu.Unlock()
}

func (r *relay) serve() {
	for {
		in, err := r.ln.Accept()
		if err != nil {
			return
		}
		switch r.get() {
		case "refuse":
			in.Close()
			continue
		case "hole":
			r.track(in)
			go io.Copy(io.Discard, in)
			continue
		}
		out, err := net.Dial("tcp", r.target)
		if err != nil {
			in.Close()
			continue
		}
		r.track(in)
		r.track(out)
		go r.pipe(in, out)
		go r.pipe(out, in)
	}
}

// pipe copies src to dst while the relay passes; in a black hole what
// arrives is dropped.
func (r *relay) pipe(src, dst net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && r.get() == "pass" {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				src.Close()
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}
