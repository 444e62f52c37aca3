//go:build !windows

package service

func (OS) RegGet(string, string) (string, bool, error) { return "", false, ErrUnsupported }
func (OS) RegSet(string, string, string) error         { return ErrUnsupported }
func (OS) RegDeleteTree(string) (bool, error)          { return false, ErrUnsupported }
func (OS) RegDeleteValue(string, string) (bool, error) { return false, ErrUnsupported }
func (OS) ServiceExists(string) (bool, error)          { return false, ErrUnsupported }
func (OS) CreateService(WinService) error              { return ErrUnsupported }
func (OS) DeleteService(string) error                  { return ErrUnsupported }
