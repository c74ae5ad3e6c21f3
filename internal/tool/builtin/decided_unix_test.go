//go:build unix

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

// swapForLink replaces the directory dir with a symbolic link to target,
// as a process running beside ponder can between a decision and the
// tool's open.
func swapForLink(t *testing.T, dir, target string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
}

// raceSetup makes a project with a directory notes/ (holding f.txt) and,
// outside it, a directory secret/ holding f.txt, the file an attacker
// wants reached.
func raceSetup(t *testing.T) (env *tool.Env, notes, secret string) {
	t.Helper()
	root := t.TempDir()
	env = &tool.Env{Dir: filepath.Join(root, "proj")}
	notes = filepath.Join(env.Dir, "notes")
	secret = filepath.Join(root, "secret")
	for _, d := range []string{notes, secret} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(notes, "f.txt"), "inside\n")
	writeFile(t, filepath.Join(secret, "f.txt"), "the secret\n")
	return env, notes, secret
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The permission decision judges the canonical path the call resolved
// once; a directory on the way swapped for a link after that must not
// send Write, Edit or Read to the link's target.
func TestDecidedPathSurvivesLinkSwap(t *testing.T) {
	cases := []struct {
		name  string
		tool  tool.Tool
		input map[string]any
	}{
		{"Write new", NewWrite(), map[string]any{"file_path": "notes/new.txt", "content": "planted\n"}},
		{"Write existing", NewWrite(), map[string]any{"file_path": "notes/f.txt", "content": "planted\n"}},
		{"Edit", NewEdit(), map[string]any{"file_path": "notes/f.txt", "old_string": "secret", "new_string": "planted"}},
		{"Read", NewRead(), map[string]any{"file_path": "notes/f.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, notes, secret := raceSetup(t)
			call := prepare(t, tc.tool, env, tc.input)
			a := call.Access()
			if len(a.Canon) != 1 || filepath.Dir(a.Canon[0]) != canonDir(t, notes) {
				t.Fatalf("Access().Canon = %q, want a path in %s", a.Canon, notes)
			}
			swapForLink(t, notes, secret)
			res := call.Run(context.Background())
			if !res.IsError {
				t.Errorf("%s ran through a link swapped in after the decision: %s", tc.name, res.Content)
			}
			if got := readString(t, filepath.Join(secret, "f.txt")); got != "the secret\n" {
				t.Errorf("the file outside was changed: %q", got)
			}
			if _, err := os.Stat(filepath.Join(secret, "new.txt")); err == nil {
				t.Error("a file was created outside the project")
			}
			if strings.Contains(res.Content, "the secret") {
				t.Errorf("the file outside was read: %s", res.Content)
			}
		})
	}
}

// A link the user made before the call is still followed: the decision
// saw it, and the tool writes the file it named then.
func TestDecidedPathFollowsLinkSeenByDecision(t *testing.T) {
	env, notes, secret := raceSetup(t)
	swapForLink(t, notes, secret)
	call := prepare(t, NewWrite(), env, map[string]any{"file_path": "notes/new.txt", "content": "x\n"})
	if a := call.Access(); a.Canon[0] != filepath.Join(canonDir(t, secret), "new.txt") {
		t.Fatalf("Canon = %q, want the link's target", a.Canon)
	}
	if res := call.Run(context.Background()); res.IsError {
		t.Fatal(res.Content)
	}
	if got := readString(t, filepath.Join(secret, "new.txt")); got != "x\n" {
		t.Errorf("target holds %q", got)
	}
}

// A process flipping a directory between a real one and a link in a
// loop, while Write runs many times: no write ever lands outside.
func TestDecidedPathLinkFlipLoop(t *testing.T) {
	env, notes, secret := raceSetup(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_ = os.RemoveAll(notes)
			if i%2 == 0 {
				_ = os.Mkdir(notes, 0o755)
			} else {
				_ = os.Symlink(secret, notes)
			}
		}
	}()
	for range 2000 {
		call, err := NewWrite().Prepare(env, mustJSON(t, map[string]any{"file_path": "notes/planted.txt", "content": "planted\n"}))
		if err != nil {
			t.Fatal(err)
		}
		if a := call.Access(); filepath.Dir(a.Canon[0]) != canonDir(t, notes) {
			continue // the decision saw the link: it judged the outside path
		}
		call.Run(context.Background())
		if _, err := os.Stat(filepath.Join(secret, "planted.txt")); err == nil {
			close(stop)
			wg.Wait()
			t.Fatal("a write decided for the project landed outside it")
		}
	}
	close(stop)
	wg.Wait()
}

// canonDir is dir with the links of the temporary directory's own path
// resolved (macOS's /var → /private/var).
func canonDir(t *testing.T, dir string) string {
	t.Helper()
	parent, err := filepath.EvalSymlinks(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(parent, filepath.Base(dir))
}
