package packaging

import (
	"bytes"
	"debug/macho"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/platform/service"
)

// TestMacBundle assembles Build Station.app with packaging/macos/bundle.sh
// as scripts/package.sh does on a Mac, from binaries built here: the
// command line (cmd/buildstation) cross-built for darwin/arm64 and
// darwin/amd64 without cgo, a stand-in for the cgo app (which builds only
// on a Mac) for both, and the bundle `fyne package -os darwin` makes
// around it (the fyne tool the Makefile names). Then it reads the result:
//
//   - Info.plist (parsed as XML): CFBundleExecutable is buildstation-app,
//     the id and version fyne wrote are kept, buildstation:// is claimed
//     and LSUIElement is true;
//   - Contents/MacOS holds buildstation-app and buildstation alone, each a
//     universal Mach-O (arm64 + x86_64) whose slices are the binaries
//     given, byte for byte, when a lipo is at hand (lipo on a Mac,
//     llvm-lipo elsewhere; else one arch each, and it says so);
//   - the front's hand-over target (faces.AppBeside) is the bundle's
//     executable, and the service installer's bundle (service.AppBundle,
//     what `service install` registers for links) is this .app;
//   - on a Mac: plutil -lint passes, Contents/MacOS/buildstation
//     --version answers itself, and `board status` is handed to the app
//     (the stand-in says it ran with those arguments).
func TestMacBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds the command line twice and runs the fyne tool")
	}
	if runtime.GOOS == "windows" {
		t.Skip("bundle.sh is a bash script for Unix")
	}
	for _, tool := range []string{"go", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	work := t.TempDir()
	lipo := findLipo()
	arches := []string{"arm64", "amd64"}
	if lipo == "" {
		arches = arches[:1]
		t.Logf("no lipo or llvm-lipo here: one arch (%s) per program, not universal", arches[0])
	}

	// The stand-in app: a program that says it ran and with what.
	standin := filepath.Join(work, "standin")
	writeFile(t, filepath.Join(standin, "go.mod"), "module standin\n\ngo 1.22\n")
	writeFile(t, filepath.Join(standin, "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\nfunc main() { fmt.Println(\"stand-in app ran with: \" + strings.Join(os.Args[1:], \" \")) }\n")
	var apps, fronts []string
	for _, arch := range arches {
		app, front := filepath.Join(work, "app-"+arch), filepath.Join(work, "front-"+arch)
		goBuild(t, standin, arch, app, ".")
		goBuild(t, "..", arch, front, "./cmd/buildstation")
		apps, fronts = append(apps, app), append(fronts, front)
	}

	// The bundle fyne makes around a built app, as in scripts/package.sh.
	src := filepath.Join(work, "src")
	toml, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "FyneApp.toml"), string(toml))
	icon, err := os.ReadFile("../assets/icon.png")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "assets", "icon.png"), string(icon))
	writeFile(t, filepath.Join(src, "main.go"), "package main\n\nfunc main() {}\n")
	fyne := exec.Command("go", "run", fyneTools(t), "package", "-os", "darwin", "--app-version", "1.2.3", "--app-build", "4", "-executable", apps[0])
	fyne.Dir = src
	fyne.Env = append(os.Environ(), "GOOS=", "GOARCH=", "CGO_ENABLED=")
	if out, err := fyne.CombinedOutput(); err != nil {
		t.Fatalf("fyne package -os darwin: %v\n%s", err, out)
	}

	bundle := filepath.Join(work, "dist", "Build Station.app")
	args := []string{"../packaging/macos/bundle.sh", "-o", bundle, "-s", filepath.Join(src, "Build Station.app")}
	for i := range apps {
		args = append(args, "-a", apps[i], "-f", fronts[i])
	}
	cmd := exec.Command("bash", args...)
	cmd.Env = append(os.Environ(), "LIPO="+lipo)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bundle.sh: %v\n%s", err, out)
	}

	plistPath := filepath.Join(bundle, "Contents", "Info.plist")
	data, err := os.ReadFile(plistPath)
	if err != nil {
		t.Fatal(err)
	}
	info, err := readPlist(data)
	if err != nil {
		t.Fatalf("Info.plist does not parse: %v\n%s", err, data)
	}
	for key, want := range map[string]any{
		"CFBundleExecutable":         faces.App,
		"CFBundleIdentifier":         "dev.buildstation.app",
		"CFBundleName":               "Build Station",
		"CFBundleShortVersionString": "1.2.3",
		"CFBundleVersion":            "4",
		"CFBundlePackageType":        "APPL",
		"LSUIElement":                true,
	} {
		if got := info[key]; got != want {
			t.Errorf("Info.plist %s = %#v, want %#v", key, got, want)
		}
	}
	if !claimsScheme(info, deeplink.Scheme) {
		t.Errorf("Info.plist's CFBundleURLTypes do not claim %s://: %#v", deeplink.Scheme, info["CFBundleURLTypes"])
	}
	if icns, _ := info["CFBundleIconFile"].(string); icns == "" || !exists(filepath.Join(bundle, "Contents", "Resources", icns)) {
		t.Errorf("the icon Info.plist names (%q) is not in Contents/Resources", icns)
	}

	macos := filepath.Join(bundle, "Contents", "MacOS")
	entries, err := os.ReadDir(macos)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{faces.Front, faces.App}) {
		t.Errorf("Contents/MacOS holds %v, want [%s %s]", names, faces.Front, faces.App)
	}
	main := filepath.Join(macos, info["CFBundleExecutable"].(string))
	front := filepath.Join(macos, faces.Front)
	if got := faces.AppBeside(front); got != main {
		t.Errorf("the front hands over to %s, want the bundle's executable %s", got, main)
	}
	if got, ok := service.AppBundle(main); !ok || got != bundle {
		t.Errorf("service.AppBundle(%s) = %q, %v: service install would not register this bundle for links", main, got, ok)
	}
	for _, c := range []struct {
		path string
		from []string
	}{{main, apps}, {front, fronts}} {
		fi, err := os.Stat(c.path)
		if err != nil || fi.Mode().Perm()&0o111 != 0o111 {
			t.Errorf("%s is not executable by all: %v %v", c.path, fi.Mode(), err)
		}
		checkSlices(t, c.path, c.from, arches)
	}

	if runtime.GOOS != "darwin" {
		return
	}
	if out, err := exec.Command("plutil", "-lint", plistPath).CombinedOutput(); err != nil {
		t.Errorf("plutil -lint: %v\n%s", err, out)
	}
	out, err := exec.Command(front, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "buildstation ") {
		t.Errorf("Contents/MacOS/buildstation --version: %v: %s", err, out)
	}
	out, err = exec.Command(front, "board", "status").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "stand-in app ran with: board status" {
		t.Errorf("Contents/MacOS/buildstation board status was not handed to the bundle's app: %v: %s", err, out)
	}
}

// findLipo is lipo (a Mac) or LLVM's (elsewhere), or "".
func findLipo() string {
	for _, name := range []string{"lipo", "llvm-lipo"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	found, _ := filepath.Glob("/usr/lib/llvm-*/bin/llvm-lipo")
	if len(found) > 0 {
		return found[len(found)-1]
	}
	return ""
}

// fyneTools is the fyne tool the Makefile's FYNE_TOOLS names, so the test
// makes the bundle scripts/package.sh makes.
func fyneTools(t *testing.T) string {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^FYNE_TOOLS\s*\?=\s*(\S+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile names no FYNE_TOOLS")
	}
	return string(m[1])
}

func goBuild(t *testing.T, dir, arch, out, pkg string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s for darwin/%s: %v\n%s", pkg, arch, err, b)
	}
}

// checkSlices: path is the one binary given (one arch), or a universal
// Mach-O whose slice for each arch is that arch's binary, byte for byte.
func checkSlices(t *testing.T, path string, from, arches []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(from) == 1 {
		want, _ := os.ReadFile(from[0])
		if !bytes.Equal(data, want) {
			t.Errorf("%s is not %s as given", path, from[0])
		}
		if _, err := macho.NewFile(bytes.NewReader(data)); err != nil {
			t.Errorf("%s is not a Mach-O: %v", path, err)
		}
		return
	}
	fat, err := macho.NewFatFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not a universal Mach-O: %v", path, err)
	}
	cpus := map[string]macho.Cpu{"arm64": macho.CpuArm64, "amd64": macho.CpuAmd64}
	if len(fat.Arches) != len(arches) {
		t.Errorf("%s has %d slices, want %d (%v)", path, len(fat.Arches), len(arches), arches)
	}
	for i, arch := range arches {
		want, _ := os.ReadFile(from[i])
		found := false
		for _, a := range fat.Arches {
			if a.Cpu != cpus[arch] {
				continue
			}
			found = true
			if got := data[a.Offset : a.Offset+a.Size]; !bytes.Equal(got, want) {
				t.Errorf("%s: the %s slice is not %s", path, arch, from[i])
			}
		}
		if !found {
			t.Errorf("%s has no %s slice", path, arch)
		}
	}
}

// claimsScheme: CFBundleURLTypes has a type whose CFBundleURLSchemes
// holds scheme.
func claimsScheme(info map[string]any, scheme string) bool {
	types, _ := info["CFBundleURLTypes"].([]any)
	for _, ty := range types {
		d, _ := ty.(map[string]any)
		schemes, _ := d["CFBundleURLSchemes"].([]any)
		if slices.Contains(schemes, any(scheme)) {
			return true
		}
	}
	return false
}

// readPlist reads an XML property list's top dict: dicts as maps, arrays
// as slices, <true/> and <false/> as bools, every other value as its text.
func readPlist(data []byte) (map[string]any, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "dict" {
			v, err := plistValue(d, se)
			if err != nil {
				return nil, err
			}
			return v.(map[string]any), nil
		}
	}
}

func plistValue(d *xml.Decoder, start xml.StartElement) (any, error) {
	switch start.Name.Local {
	case "dict":
		m := map[string]any{}
		key := ""
		for {
			tok, err := d.Token()
			if err != nil {
				return nil, err
			}
			switch tok := tok.(type) {
			case xml.EndElement:
				if key != "" {
					return nil, fmt.Errorf("key %s has no value", key)
				}
				return m, nil
			case xml.StartElement:
				if tok.Name.Local == "key" {
					if key != "" {
						return nil, fmt.Errorf("key %s has no value", key)
					}
					var k string
					if err := d.DecodeElement(&k, &tok); err != nil {
						return nil, err
					}
					key = k
					continue
				}
				if key == "" {
					return nil, fmt.Errorf("a <%s> with no key before it", tok.Name.Local)
				}
				v, err := plistValue(d, tok)
				if err != nil {
					return nil, err
				}
				if _, dup := m[key]; dup {
					return nil, fmt.Errorf("key %s twice", key)
				}
				m[key], key = v, ""
			}
		}
	case "array":
		var a []any
		for {
			tok, err := d.Token()
			if err != nil {
				return nil, err
			}
			switch tok := tok.(type) {
			case xml.EndElement:
				return a, nil
			case xml.StartElement:
				v, err := plistValue(d, tok)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
		}
	case "true", "false":
		if err := d.Skip(); err != nil {
			return nil, err
		}
		return start.Name.Local == "true", nil
	case "string", "integer", "real", "date", "data":
		var s string
		if err := d.DecodeElement(&s, &start); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("<%s> is not a property list value", start.Name.Local)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
