//go:build unix

package planmode

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe, a link or a directory at the plan's path is no plan: it
// is logged, and reading it neither blocks nor reaches another file.
func TestReadPlanRefusesSpecialFiles(t *testing.T) {
	var logged []string
	s, _ := newSession(t, func(c *Config) { c.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) } })
	plan := s.PlanFile("")
	other := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(other, []byte("secret"), 0o600)
	for _, plant := range []func() error{
		func() error { return syscall.Mkfifo(plan, 0o600) },
		func() error { return os.Symlink(other, plan) },
	} {
		os.Remove(plan)
		if err := plant(); err != nil {
			t.Fatal(err)
		}
		logged = nil
		done := make(chan bool, 1)
		go func() { _, ok := s.ReadPlan(""); done <- ok }()
		select {
		case ok := <-done:
			if ok || len(logged) != 1 {
				t.Errorf("ok=%v logged=%q", ok, logged)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reading the plan blocked")
		}
	}
	os.Remove(plan)
	if err := s.WritePlan("", "the plan"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(other); string(data) != "secret" {
		t.Fatal("the plan was written through a link")
	}
}
