package clone

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Stats counts what Tree did: files cloned copy-on-write (a folder macOS
// cloned in one call counts once), files copied byte by byte, and files
// left alone because the destination already had them.
type Stats struct {
	Cloned, Copied, Kept int
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Cloned += o.Cloned
	s.Copied += o.Copied
	s.Kept += o.Kept
}

// How says in a word or two how the files came: "cloned", "copied",
// "cloned and copied", or "" when none did.
func (s Stats) How() string {
	switch {
	case s.Cloned > 0 && s.Copied > 0:
		return "cloned and copied"
	case s.Cloned > 0:
		return "cloned"
	case s.Copied > 0:
		return "copied"
	}
	return ""
}

// Tree brings src (a file, a symbolic link or a folder, recursively) to
// dst. Whatever dst already holds is kept: a file there is never
// overwritten, a folder there is filled in. Symbolic links are recreated
// as links (a node_modules/.bin stays links), never followed.
func Tree(src, dst string) (Stats, error) {
	var st Stats
	fi, err := os.Lstat(src)
	if err != nil {
		return st, err
	}
	if fi.IsDir() {
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return st, err
			}
			// One call for the whole folder where the OS can (macOS).
			if ok, err := cloneDir(src, dst); err != nil {
				return st, fmt.Errorf("clone %s: %w", src, err)
			} else if ok {
				st.Cloned++
				return st, nil
			}
		}
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.MkdirAll(to, info.Mode().Perm()|0o700); err != nil {
				return err
			}
			return nil
		case exists(to):
			st.Kept++
			return nil
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			st.Copied++
			return os.Symlink(target, to)
		case !info.Mode().IsRegular():
			return nil // a socket or a fifo: nothing to bring
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		cloned, err := cloneFile(path, to, info.Mode().Perm())
		if err != nil {
			return fmt.Errorf("copy %s: %w", path, err)
		}
		if cloned {
			st.Cloned++
		} else {
			st.Copied++
		}
		return nil
	})
	return st, err
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// copyBytes is the fallback: a new file (never one that exists) filled
// from src. Between two *os.File, io.Copy lets the kernel copy where it
// can (copy_file_range on Linux, which some file systems turn into a
// clone or a server-side copy).
func copyBytes(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}
