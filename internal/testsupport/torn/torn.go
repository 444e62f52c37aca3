package torn

import (
	"os"
	"strings"
	"testing"
)

// MiddlePage scribbles over one 4 KiB page in the middle of the file at
// path (a closed SQLite database, its WAL checkpointed into it).
func MiddlePage(t testing.TB, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	page := int64(4096)
	mid := (st.Size() / page / 2) * page
	if _, err := f.WriteAt([]byte(strings.Repeat("\xa5garbage", 512)), mid); err != nil {
		t.Fatal(err)
	}
}
