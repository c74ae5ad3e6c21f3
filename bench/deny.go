package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// DenyRows are the costs of the deny layer: finding the paths deny rules
// cover in a generated tree (once, again when nothing changed, again after
// a directory changed), and starting `bash -c true` with the kernel layer
// for them, against the same start without it.
type DenyRows struct {
	Files, Denied                        int
	Discover, Unchanged, Changed         Stats
	Plain, PlainDeny, Confined, ConfDeny Stats
}

// DenyCost measures DenyRows on a tree of files files, n runs each.
func DenyCost(files, n int) (DenyRows, error) {
	// Not below the temporary directory: confined commands make and
	// remove their scratch directories there, which would change a
	// directory on the way to the denied paths at every start.
	cache, err := os.UserCacheDir()
	if err != nil {
		return DenyRows{}, err
	}
	base, err := os.MkdirTemp(cache, "ponder-bench-deny-")
	if err != nil {
		return DenyRows{}, err
	}
	defer os.RemoveAll(base)
	root, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	if err := GenerateTree(root, files); err != nil {
		return DenyRows{}, err
	}
	for i := range 20 {
		p := filepath.Join(root, fmt.Sprintf("pkg%02d", i), ".env")
		if err := os.WriteFile(p, []byte("SECRET=1\n"), 0o600); err != nil {
			return DenyRows{}, err
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		return DenyRows{}, err
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("key\n"), 0o600); err != nil {
		return DenyRows{}, err
	}
	rules := permission.Rules{Deny: []string{"Read(.env)", "Read(*.pem)", "Read(~/.ssh/**)", "Edit(/build/**)"}}
	rows := DenyRows{Files: files}
	timeIt := func(into *[]time.Duration, f func() error) error {
		t0 := time.Now()
		err := f()
		*into = append(*into, time.Since(t0))
		return err
	}
	var discover, unchanged, changed []time.Duration
	var denied permission.DeniedPaths
	for i := range n {
		e, err := permission.NewEngine(rules, root, home)
		if err != nil {
			return rows, err
		}
		if err := timeIt(&discover, func() error { denied = e.DeniedPaths(); return nil }); err != nil {
			return rows, err
		}
		if err := timeIt(&unchanged, func() error { e.DeniedPaths(); return nil }); err != nil {
			return rows, err
		}
		p := filepath.Join(root, "pkg07", fmt.Sprintf("new%d.go", i))
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			return rows, err
		}
		if err := timeIt(&changed, func() error { e.DeniedPaths(); return nil }); err != nil {
			return rows, err
		}
	}
	rows.Denied = len(denied.Read) + len(denied.Write)
	rows.Discover, rows.Unchanged, rows.Changed = summarise(discover), summarise(unchanged), summarise(changed)

	sb, err := sandbox.New(sandbox.Options{})
	if err != nil || !sb.DenyEnforced(true) {
		return rows, nil
	}
	deny := sandbox.Deny{Read: denied.Read, Write: denied.Write}
	start := func(c *sandbox.Confinement, d sandbox.Deny) error {
		cmd := exec.Command("bash", "-c", "true")
		cmd.Dir = root
		p, err := sb.StartWith(cmd, sandbox.StartOptions{Confine: c, Deny: d})
		if err != nil {
			return err
		}
		if err := p.Wait(); err != nil {
			return err
		}
		return p.Cleanup()
	}
	var plain, plainDeny, conf, confDeny []time.Duration
	for range n {
		for _, s := range []struct {
			into *[]time.Duration
			c    *sandbox.Confinement
			d    sandbox.Deny
		}{{&plain, nil, sandbox.Deny{}}, {&plainDeny, nil, deny}, {&conf, &sandbox.Confinement{}, sandbox.Deny{}}, {&confDeny, &sandbox.Confinement{}, deny}} {
			if err := timeIt(s.into, func() error { return start(s.c, s.d) }); err != nil {
				return rows, err
			}
		}
	}
	rows.Plain, rows.PlainDeny, rows.Confined, rows.ConfDeny = summarise(plain), summarise(plainDeny), summarise(conf), summarise(confDeny)
	return rows, nil
}
