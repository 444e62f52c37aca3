package service

import (
	"errors"
	"fmt"
	"unsafe"

	ks "github.com/kardianos/service"
	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

func (OS) RegGet(key, name string) (string, bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer k.Close()
	v, _, err := k.GetStringValue(name)
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	return v, err == nil, err
}

func (OS) RegSet(key, name, value string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, key, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.SetStringValue(name, value)
}

func (OS) RegDeleteValue(key, name string) (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer k.Close()
	err = k.DeleteValue(name)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

var procRegDeleteTreeW = windows.NewLazySystemDLL("advapi32.dll").NewProc("RegDeleteTreeW")

// RegDeleteTree deletes key and its subkeys (RegDeleteTreeW, Vista+).
func (OS) RegDeleteTree(key string) (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	k.Close()
	p, err := windows.UTF16PtrFromString(key)
	if err != nil {
		return false, err
	}
	if r, _, _ := procRegDeleteTreeW.Call(uintptr(registry.CURRENT_USER), uintptr(unsafe.Pointer(p))); r != 0 {
		return false, windows.Errno(r)
	}
	return true, nil
}

// kardianos is the service library's view of a service; it does the
// Service Control Manager calls (create with an account and password,
// recovery actions, delete).
func kardianos(s WinService, password string) (ks.Service, error) {
	opts := ks.KeyValue{
		"StartType":              ks.ServiceStartAutomatic,
		"DelayedAutoStart":       true, // after login-critical services; agents are not urgent
		"OnFailure":              "restart",
		"OnFailureDelayDuration": "10s",
	}
	if password != "" {
		opts["Password"] = password
	}
	return ks.New(noProgram{}, &ks.Config{
		Name: s.Name, DisplayName: s.DisplayName, Description: s.Description,
		Executable: s.Exe, Arguments: s.Args, UserName: s.User, Option: opts,
	})
}

type noProgram struct{}

func (noProgram) Start(ks.Service) error { return nil }
func (noProgram) Stop(ks.Service) error  { return nil }

func (OS) ServiceExists(name string) (bool, error) {
	svc, err := kardianos(WinService{Name: name}, "")
	if err != nil {
		return false, err
	}
	_, err = svc.Status()
	if errors.Is(err, ks.ErrNotInstalled) {
		return false, nil
	}
	return err == nil, err
}

func (o OS) CreateService(s WinService) error {
	var password string
	if o.Password != nil {
		var err error
		if password, err = o.Password(s.User); err != nil {
			return fmt.Errorf("read the password of %s: %w", s.User, err)
		}
	}
	svc, err := kardianos(s, password)
	if err != nil {
		return err
	}
	return svc.Install()
}

func (OS) DeleteService(name string) error {
	svc, err := kardianos(WinService{Name: name}, "")
	if err != nil {
		return err
	}
	return svc.Uninstall()
}
