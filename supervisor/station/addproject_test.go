package station

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The dashboard's Add project asks first with DryRun: the station checks
// the folder, the name and the agent, and answers the windows the project
// would run with (the [defaults] where none is set), writing nothing; the
// real add then writes the windows the person changed.
func TestAddProjectDryRunShowsTheDefaultsAndWritesNothing(t *testing.T) {
	home, folder := t.TempDir(), t.TempDir()
	path := filepath.Join(home, "config.toml")
	text := config.DefaultText()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(path, []byte(text), config.Platform{})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, func(o *Options) { o.Config = cfg })
	np := supervisor.NewProject{Name: "web", Path: folder, Command: []string{"agent"}, DryRun: true}
	got, err := h.st.Projects.AddProject(h.ctx, np)
	if err != nil {
		t.Fatal(err)
	}
	if got.Project.Name != "web" || got.Project.IdleWindow != cfg.Defaults.IdleWindow.String() || got.Project.BlockWindow != cfg.Defaults.BlockWindow.String() {
		t.Fatalf("dry run answered %+v", got.Project)
	}
	if b, _ := os.ReadFile(path); string(b) != text || len(h.st.Config().Projects) != 0 {
		t.Fatal("a dry run wrote config.toml or added the project")
	}
	np.Settings = map[string]string{"idle_window": "soon"}
	if _, err := h.st.Projects.AddProject(h.ctx, np); err == nil || !strings.Contains(err.Error(), "idle_window") {
		t.Fatalf("a bad window in a dry run: %v", err)
	}
	np.DryRun, np.Settings = false, map[string]string{"idle_window": "15m"}
	got, err = h.st.Projects.AddProject(h.ctx, np)
	if err != nil {
		t.Fatal(err)
	}
	if got.Project.IdleWindow != (15*time.Minute).String() || len(h.st.Config().Projects) != 1 {
		t.Fatalf("added %+v", got.Project)
	}
	if b, _ := os.ReadFile(path); !strings.HasSuffix(string(b), "idle_window = \"15m\"\n") {
		t.Fatalf("config.toml ends:\n%s", b[len(b)-120:])
	}
}

// recAdvisor suggests what it is given and records what it writes.
type recAdvisor struct {
	sug     supervisor.SetupSuggestion
	sugAt   map[string]supervisor.SetupSuggestion // by folder, over sug
	written []string
	include string
	refuse  error
}

func (a *recAdvisor) Suggest(_ context.Context, path string) supervisor.SetupSuggestion {
	if s, ok := a.sugAt[path]; ok {
		return s
	}
	return a.sug
}

func (a *recAdvisor) WriteInclude(_ string, lines []string) error {
	a.written = lines
	return nil
}

func (a *recAdvisor) Include(string) (string, error) { return a.include, nil }

func (a *recAdvisor) SetInclude(_, text string) error {
	a.include = text
	return nil
}

func (a *recAdvisor) CheckFolder(context.Context, string) error { return a.refuse }

// Add project offers the folder's setup and .worktreeinclude, and writes
// them only when the person sends them back.
func TestAddProjectSuggestsSetupAndWritesOnlyWhatIsAccepted(t *testing.T) {
	home, folder := t.TempDir(), t.TempDir()
	path := filepath.Join(home, "config.toml")
	text := config.DefaultText()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(path, []byte(text), config.Platform{})
	if err != nil {
		t.Fatal(err)
	}
	adv := &recAdvisor{sug: supervisor.SetupSuggestion{Setup: "npm ci", Because: "package-lock.json", Include: []string{".env*"}}}
	h := startWith(t, func(o *Options) { o.Config, o.Setup = cfg, adv })
	np := supervisor.NewProject{Name: "web", Path: folder, Command: []string{"agent"}, DryRun: true}
	got, err := h.st.Projects.AddProject(h.ctx, np)
	if err != nil || got.Suggested == nil || got.Suggested.Setup != "npm ci" || adv.written != nil {
		t.Fatalf("dry run: %+v %v, written %v", got.Suggested, err, adv.written)
	}
	np.DryRun, np.Setup, np.Include = false, got.Suggested.Setup, got.Suggested.Include
	if _, err := h.st.Projects.AddProject(h.ctx, np); err != nil {
		t.Fatal(err)
	}
	if p, ok := h.st.Config().Project("web"); !ok || p.Setup != "npm ci" || len(adv.written) != 1 {
		t.Fatalf("accepted: %+v, written %v", p.Repo, adv.written)
	}
}

// Edit project reads every project key with its value and default, what
// the folder suggests, its .worktreeinclude, and writes the include the
// person edits.
func TestEditProjectReadsEveryKeyAndTheInclude(t *testing.T) {
	folder := t.TempDir()
	p := project("web", 5*time.Minute, 5*time.Minute)
	p.Path, p.Setup = folder, "npm ci"
	p.Written = map[string]string{"setup": "npm ci"}
	adv := &recAdvisor{sug: supervisor.SetupSuggestion{Gate: "npm test", GateBecause: "package.json"}, include: ".env\n"}
	h := startWith(t, func(o *Options) { o.Setup = adv }, p)
	info, err := h.st.Projects.Project(h.ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range info.Settings {
		keys = append(keys, s.Key)
		if s.Key == "setup" && s.Value != "npm ci" {
			t.Errorf("setup shown as %q", s.Value)
		}
	}
	if !slices.Equal(keys, config.ProjectKeys) {
		t.Errorf("settings offered %v, want every key project set takes %v", keys, config.ProjectKeys)
	}
	ps, err := h.st.Projects.ProjectSetup(h.ctx, "web", "")
	if err != nil || ps.Include != ".env\n" || ps.Suggested.Gate != "npm test" {
		t.Fatalf("project setup: %+v %v", ps, err)
	}
	// A folder typed in Edit project is read in place of the project's
	// (not saved): its suggestions follow the typing. A relative path,
	// or a folder the station refuses for a project, is refused.
	shop := t.TempDir()
	adv.sugAt = map[string]supervisor.SetupSuggestion{shop: {Gate: "cargo test", GateBecause: "Cargo.toml"}}
	if ps, err := h.st.Projects.ProjectSetup(h.ctx, "web", shop+"/"); err != nil || ps.Suggested.Gate != "cargo test" {
		t.Errorf("project setup of the folder typed: %+v %v", ps, err)
	}
	if p, _ := h.st.Config().Project("web"); p.Path != folder {
		t.Errorf("reading a folder typed moved the project to %s", p.Path)
	}
	if _, err := h.st.Projects.ProjectSetup(h.ctx, "web", "src/shop"); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("a relative folder: %v", err)
	}
	adv.refuse = errors.New("folder " + shop + " belongs to another user")
	if _, err := h.st.Projects.ProjectSetup(h.ctx, "web", shop); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("a refused folder: %v", err)
	}
	adv.refuse = nil
	if err := h.st.Projects.SetInclude(h.ctx, "web", ".env*\nnode_modules/\n"); err != nil || adv.include != ".env*\nnode_modules/\n" {
		t.Fatalf("set include: %v, %q", err, adv.include)
	}
	if err := h.st.Projects.SetInclude(h.ctx, "nope", ""); err == nil || !strings.Contains(err.Error(), "no project named") {
		t.Errorf("an unknown project: %v", err)
	}
}
