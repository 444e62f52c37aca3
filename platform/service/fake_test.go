package service

import (
	"io/fs"
	"strings"
)

// fakeSystem is an in-memory OS that records the commands it is asked to
// run; fail makes a command (by its joined argv) fail.
type fakeSystem struct {
	files    map[string]string
	reg      map[string]string // key + "\x00" + name → value
	services map[string]WinService
	ran      []string
	fail     map[string]bool
	out      map[string]string // a command's output (joined argv → text)
	failKey  map[string]bool   // RegSet of this key fails
}

func newFake() *fakeSystem {
	return &fakeSystem{files: map[string]string{}, reg: map[string]string{}, services: map[string]WinService{}, fail: map[string]bool{}}
}

func (f *fakeSystem) ReadFile(p string) ([]byte, error) {
	d, ok := f.files[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(d), nil
}

func (f *fakeSystem) WriteFile(p string, data []byte, _ fs.FileMode) error {
	f.files[p] = string(data)
	return nil
}

func (f *fakeSystem) Remove(p string) error {
	if _, ok := f.files[p]; !ok {
		return fs.ErrNotExist
	}
	delete(f.files, p)
	return nil
}

func (f *fakeSystem) Run(argv []string) (string, error) {
	cmd := strings.Join(argv, " ")
	f.ran = append(f.ran, cmd)
	if f.fail[cmd] {
		return "not loaded", errFake
	}
	return f.out[cmd], nil
}

type fakeErr string

func (e fakeErr) Error() string { return string(e) }

const errFake = fakeErr("exit status 1")

func (f *fakeSystem) RegGet(key, name string) (string, bool, error) {
	v, ok := f.reg[key+"\x00"+name]
	return v, ok, nil
}

func (f *fakeSystem) RegSet(key, name, value string) error {
	if f.failKey[key] {
		return fakeErr("Access is denied.")
	}
	f.reg[key+"\x00"+name] = value
	return nil
}

func (f *fakeSystem) RegDeleteTree(key string) (bool, error) {
	existed := false
	for k := range f.reg {
		if strings.HasPrefix(k, key+"\x00") || strings.HasPrefix(k, key+`\`) {
			delete(f.reg, k)
			existed = true
		}
	}
	return existed, nil
}

func (f *fakeSystem) RegDeleteValue(key, name string) (bool, error) {
	_, ok := f.reg[key+"\x00"+name]
	delete(f.reg, key+"\x00"+name)
	return ok, nil
}

func (f *fakeSystem) ServiceExists(name string) (bool, error) {
	_, ok := f.services[name]
	return ok, nil
}

func (f *fakeSystem) CreateService(s WinService) error {
	f.services[s.Name] = s
	return nil
}

func (f *fakeSystem) DeleteService(name string) error {
	delete(f.services, name)
	return nil
}
