package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// newSandboxApp builds an app with the given environment and user
// settings, returning New's error.
func newSandboxApp(t *testing.T, env map[string]string, settings string) (*App, error) {
	t.Helper()
	base := t.TempDir()
	dir, cfg := filepath.Join(base, "project"), filepath.Join(base, "config")
	os.MkdirAll(dir, 0o755)
	if settings != "" {
		os.MkdirAll(cfg, 0o755)
		os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(settings), 0o644)
	}
	a, err := New(Options{Dir: dir, ConfigDir: cfg, LLM: fakemodel.NewProvider(fakemodel.Script{}),
		Getenv: func(k string) string { return env[k] }})
	if err == nil {
		t.Cleanup(func() { a.Close() })
	}
	return a, err
}

func TestSandboxRequired(t *testing.T) {
	_, err := newSandboxApp(t, map[string]string{"PONDER_SANDBOX": "none"}, `{"sandbox":{"required":true}}`)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "sandbox.required") {
		t.Fatalf("err = %v", err)
	}
	a, err := newSandboxApp(t, nil, `{"sandbox":{"required":true}}`)
	if sandboxHere() {
		if err != nil || !a.sandbox.Available() {
			t.Fatalf("with a sandbox here: %v", err)
		}
	} else if err == nil {
		t.Fatal("started without a sandbox although one is required")
	}
}

func TestClassifierSwitch(t *testing.T) {
	_, err := newSandboxApp(t, map[string]string{"PONDER_SANDBOX": "none", ClassifierSwitchEnv: "off"}, "")
	if err == nil || !strings.Contains(err.Error(), "needs an OS sandbox") {
		t.Fatalf("classifier off without a sandbox: %v", err)
	}
	if _, err := newSandboxApp(t, map[string]string{ClassifierSwitchEnv: "maybe"}, ""); err == nil {
		t.Fatal("a bad switch value was accepted")
	}
	if !sandboxHere() {
		return
	}
	a, err := newSandboxApp(t, map[string]string{ClassifierSwitchEnv: "off"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(a.warnings, "\n"), ClassifierSwitchEnv+"=off") {
		t.Errorf("the switch is not said out loud: %v", a.warnings)
	}
}

func TestNoSandboxIsSaidOutLoud(t *testing.T) {
	a, err := newSandboxApp(t, map[string]string{"PONDER_SANDBOX": "none"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(a.warnings, "\n"); !strings.Contains(w, "no OS sandbox") || !strings.Contains(w, "will not run shell commands") {
		t.Errorf("warnings %q", w)
	}
	a, err = newSandboxApp(t, map[string]string{"PONDER_SANDBOX": "none"}, `{"sandbox":{"allowUnsandboxed":true}}`)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(a.warnings, "\n"); !strings.Contains(w, "only ponder's command check guards plan mode") {
		t.Errorf("warnings %q", w)
	}
	if _, err := newSandboxApp(t, map[string]string{"PONDER_SANDBOX": "jail"}, ""); err == nil {
		t.Fatal("an unknown PONDER_SANDBOX was accepted")
	}
}

func TestSessionStartedNamesTheSandbox(t *testing.T) {
	var got []event.Event
	base := t.TempDir()
	os.MkdirAll(filepath.Join(base, "p"), 0o755)
	a, err := New(Options{Dir: filepath.Join(base, "p"), ConfigDir: filepath.Join(base, "c"), LLM: fakemodel.NewProvider(fakemodel.Script{}),
		Getenv: func(string) string { return "" }, Sink: func(e event.Event) { got = append(got, e) }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	start, ok := got[0].(event.SessionStarted)
	if !ok || start.Sandbox != string(a.sandbox.Kind()) || start.Sandbox == "" {
		t.Fatalf("first event %+v", got[0])
	}
	if !strings.Contains(strings.Join(start.Tools, ","), "BashOutput") || !strings.Contains(strings.Join(start.Tools, ","), "KillShell") {
		t.Errorf("tools %v", start.Tools)
	}
}

func sandboxHere() bool {
	sb, err := sandbox.New(sandbox.Options{})
	return err == nil && sb.Available()
}
