//go:build windows

package notifier

import (
	"fmt"
	"sync"
	"syscall"
	"unicode/utf16"
	"unsafe"

	"github.com/go-ole/go-ole"
	"golang.org/x/sys/windows"
)

// The Windows Runtime calls a toast needs, made directly through COM: show
// one with a tag and a group (which go-toast's wintoast does not set), and
// remove it from the Action Center by them once what it announced is over.
// There is no script anywhere on this path.
//
// Compile-checked here (GOOS=windows); Wine has no toast platform, so this
// runs for real only on Windows.

// Interface ids and vtable slots, from windows.ui.notifications.idl and
// windows.data.xml.dom.idl. A slot counts from the first method after
// IInspectable's six.
const (
	iidXmlDocument                     = "{f7f3a506-1e87-42d6-bcfb-b8c809fa5494}"
	iidXmlDocumentIO                   = "{6cd0e74e-ee65-4489-9ebf-ca43e87ba637}" // LoadXml is slot 0
	iidToastNotificationFactory        = "{04124b20-82c6-4229-b109-fd9ed4662b53}" // CreateToastNotification is slot 0
	iidToastNotification2              = "{9dfb9fd1-143a-490e-90bf-b9fba7132de7}" // put_Tag 0, put_Group 2
	iidToastNotificationManagerStatics = "{50ac103f-d235-4598-bbef-98fe4d1a3ad4}" // CreateToastNotifierWithId is slot 1
	iidToastNotificationManagerStat2   = "{7ab93c52-0e48-4750-ba9d-1a4113981847}" // get_History is slot 0
	iidToastNotificationHistory        = "{5caddc63-01d3-4c97-986f-0533483fee14}" // RemoveGroupedTagWithId is slot 2
	// IToastNotifier: Show is slot 0.
)

// toastGroup is the group of every toast of ours; the tag names one notice.
const toastGroup = "buildstation"

var (
	roOnce       sync.Once
	combase      = windows.NewLazySystemDLL("combase.dll")
	createString = combase.NewProc("WindowsCreateString")
	deleteString = combase.NewProc("WindowsDeleteString")
)

// roInit joins the process's multithreaded apartment once; calls from any
// goroutine's thread then run in it.
func roInit() { roOnce.Do(func() { _ = ole.RoInitialize(1) }) }

// hstring makes an HSTRING of s (its UTF-16 length, not its rune count).
func hstring(s string) (uintptr, error) {
	u := utf16.Encode([]rune(s))
	var p *uint16
	if len(u) > 0 {
		p = &u[0]
	}
	var h uintptr
	hr, _, _ := createString.Call(uintptr(unsafe.Pointer(p)), uintptr(len(u)), uintptr(unsafe.Pointer(&h)))
	if hr != 0 {
		return 0, ole.NewError(hr)
	}
	return h, nil
}

func freeString(h uintptr) { _, _, _ = deleteString.Call(h) }

// slot is method n of a COM object's vtable, counted from 0.
func slot(obj unsafe.Pointer, n int) uintptr {
	return unsafe.Slice(*(**uintptr)(obj), n+1)[n]
}

// method calls slot n (after IInspectable's six) of obj. uintptrescapes
// keeps the out-parameters its callers pass as uintptr(unsafe.Pointer(&v))
// on the heap and alive for the call, as for syscall.SyscallN itself.
//
//go:uintptrescapes
func method(obj unsafe.Pointer, n int, args ...uintptr) error {
	hr, _, _ := syscall.SyscallN(slot(obj, 6+n), append([]uintptr{uintptr(obj)}, args...)...)
	if hr != 0 {
		return ole.NewError(hr)
	}
	return nil
}

func queryInterface(obj unsafe.Pointer, iid string) (unsafe.Pointer, error) {
	var out unsafe.Pointer
	hr, _, _ := syscall.SyscallN(slot(obj, 0), uintptr(obj), uintptr(unsafe.Pointer(ole.NewGUID(iid))), uintptr(unsafe.Pointer(&out)))
	if hr != 0 {
		return nil, ole.NewError(hr)
	}
	return out, nil
}

func release(obj unsafe.Pointer) {
	if obj != nil {
		_, _, _ = syscall.SyscallN(slot(obj, 2), uintptr(obj))
	}
}

func factory(class, iid string) (unsafe.Pointer, error) {
	f, err := ole.RoGetActivationFactory(class, ole.NewGUID(iid))
	if err != nil {
		return nil, err
	}
	return unsafe.Pointer(f), nil
}

// showToast shows the toast doc for appID, tagged so removeToast finds it;
// a toast with the same tag and group replaces the one showing.
func showToast(appID, doc, tag string) error {
	roInit()
	strs := map[string]uintptr{}
	defer func() {
		for _, h := range strs {
			freeString(h)
		}
	}()
	for _, s := range []string{appID, doc, tag, toastGroup} {
		h, err := hstring(s)
		if err != nil {
			return fmt.Errorf("make a string for the toast: %w", err)
		}
		strs[s] = h
	}
	iDoc, err := loadXML(strs[doc])
	if err != nil {
		return err
	}
	defer release(iDoc)
	toast, err := newToast(iDoc, strs[tag], strs[toastGroup])
	if err != nil {
		return err
	}
	defer release(toast)
	mgr, err := factory("Windows.UI.Notifications.ToastNotificationManager", iidToastNotificationManagerStatics)
	if err != nil {
		return fmt.Errorf("reach the toast manager: %w", err)
	}
	defer release(mgr)
	var notifier unsafe.Pointer
	if err := method(mgr, 1, strs[appID], uintptr(unsafe.Pointer(&notifier))); err != nil {
		return fmt.Errorf("create a toast notifier for %s: %w", appID, err)
	}
	defer release(notifier)
	if err := method(notifier, 0, uintptr(toast)); err != nil {
		return fmt.Errorf("show the toast: %w", err)
	}
	return nil
}

// loadXML loads doc (an HSTRING) into a WinRT XmlDocument and returns its
// IXmlDocument, which holds its own reference: the caller releases it.
func loadXML(doc uintptr) (unsafe.Pointer, error) {
	ins, err := ole.RoActivateInstance("Windows.Data.Xml.Dom.XmlDocument")
	if err != nil {
		return nil, fmt.Errorf("create the toast's XML document: %w", err)
	}
	xmlDoc := unsafe.Pointer(ins)
	defer release(xmlDoc)
	xmlIO, err := queryInterface(xmlDoc, iidXmlDocumentIO)
	if err != nil {
		return nil, fmt.Errorf("load the toast's XML: %w", err)
	}
	defer release(xmlIO)
	if err := method(xmlIO, 0, doc); err != nil {
		return nil, fmt.Errorf("load the toast's XML: %w", err)
	}
	iDoc, err := queryInterface(xmlDoc, iidXmlDocument)
	if err != nil {
		return nil, fmt.Errorf("load the toast's XML: %w", err)
	}
	return iDoc, nil
}

// newToast makes a toast of iDoc tagged tag in group (HSTRINGs), so it can
// be removed by tag later; the caller releases it.
func newToast(iDoc unsafe.Pointer, tag, group uintptr) (unsafe.Pointer, error) {
	fac, err := factory("Windows.UI.Notifications.ToastNotification", iidToastNotificationFactory)
	if err != nil {
		return nil, fmt.Errorf("create a toast: %w", err)
	}
	defer release(fac)
	var toast unsafe.Pointer
	if err := method(fac, 0, uintptr(iDoc), uintptr(unsafe.Pointer(&toast))); err != nil {
		return nil, fmt.Errorf("create a toast: %w", err)
	}
	t2, err := queryInterface(toast, iidToastNotification2)
	if err != nil {
		release(toast)
		return nil, fmt.Errorf("tag the toast: %w", err)
	}
	defer release(t2)
	if err := method(t2, 0, tag); err != nil {
		release(toast)
		return nil, fmt.Errorf("tag the toast: %w", err)
	}
	if err := method(t2, 2, group); err != nil {
		release(toast)
		return nil, fmt.Errorf("group the toast: %w", err)
	}
	return toast, nil
}

// removeToast removes the toast tagged tag from the screen and the Action
// Center; one that is gone already is no error.
func removeToast(appID, tag string) error {
	roInit()
	hApp, err := hstring(appID)
	if err != nil {
		return err
	}
	defer freeString(hApp)
	hTag, err := hstring(tag)
	if err != nil {
		return err
	}
	defer freeString(hTag)
	hGroup, err := hstring(toastGroup)
	if err != nil {
		return err
	}
	defer freeString(hGroup)
	mgr, err := factory("Windows.UI.Notifications.ToastNotificationManager", iidToastNotificationManagerStat2)
	if err != nil {
		return fmt.Errorf("reach the toast history: %w", err)
	}
	defer release(mgr)
	var hist unsafe.Pointer
	if err := method(mgr, 0, uintptr(unsafe.Pointer(&hist))); err != nil {
		return fmt.Errorf("reach the toast history: %w", err)
	}
	defer release(hist)
	if err := method(hist, 2, hTag, hGroup, hApp); err != nil {
		return fmt.Errorf("remove the toast %s: %w", tag, err)
	}
	return nil
}
