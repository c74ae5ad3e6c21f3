package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// compatStep is one everyday command and what it needs installed.
type compatStep struct {
	area, cmd, needs string
	// escalates says the workspace policy is expected to withhold
	// something from it, and why.
	escalates string
}

// compatSteps are the everyday commands of the compatibility table, in
// the order they run (later ones build on earlier ones).
var compatSteps = []compatStep{
	{"go", "go version", "go", ""},
	{"go", "go env GOCACHE GOMODCACHE", "go", ""},
	{"go", "gofmt -l .", "go", ""},
	{"go", "go vet ./...", "go", ""},
	{"go", "go build ./...", "go", ""},
	{"go", "go test ./...", "go", ""},
	{"go", "go run .", "go", ""},
	{"go", "go mod tidy", "go", ""},
	{"node", "node -e 'require(\"fs\").writeFileSync(\"node-out.txt\",\"x\")'", "node", ""},
	{"node", "npm test", "npm", ""},
	{"node", "npm run build", "npm", ""},
	{"node", "npm ls", "npm", ""},
	{"node", "npm version patch --no-git-tag-version", "npm", ""},
	{"node", "npm install left-pad", "npm", "network (sandbox.network is off)"},
	{"python", "python3 -m venv .venv", "python3", ""},
	{"python", ".venv/bin/python -c 'print(1)'", "python3", ""},
	{"python", ".venv/bin/pip --version", "python3", ""},
	{"python", "python3 -m compileall -q src", "python3", ""},
	{"python", "python3 -m unittest discover -s src -q", "python3", ""},
	{"python", "python3 src/write.py", "python3", ""},
	{"make", "make", "make", ""},
	{"make", "make test", "make", ""},
	{"make", "make clean", "make", ""},
	{"git", "git status --short", "git", ""},
	{"git", "git add -A", "git", ""},
	{"git", "git commit -qm 'work'", "git", ""},
	{"git", "git log --oneline -3", "git", ""},
	{"git", "git checkout -qb feature", "git", ""},
	{"git", "echo change >> README.md && git commit -qam 'feature work'", "git", ""},
	{"git", "git checkout -q -", "git", ""},
	{"git", "echo main >> NOTES.md && git add NOTES.md && git commit -qm 'main work'", "git", ""},
	{"git", "git checkout -q feature && git rebase -q - && git checkout -q -", "git", ""},
	{"git", "echo wip >> README.md && git stash -q", "git", ""},
	{"git", "git stash pop -q", "git", ""},
	{"git", "git diff --stat", "git", ""},
	{"git", "git tag v0.1", "git", ""},
	{"git", "git worktree add -q .worktrees/side", "git", ""},
	{"git", "git -C .worktrees/side log --oneline -1", "git", ""},
	{"git", "git worktree add -q ../side-outside", "git", "a write outside the project"},
	{"git", "git config user.name other", "git", "a write to .git/config"},
	{"shell", "sed -i s/hello/hi/ README.md", "", ""},
	{"shell", "mkdir -p build && cp README.md build/ && ls build", "", ""},
	{"shell", "tar czf build/src.tgz src && tar xzf build/src.tgz -C build", "", ""},
	{"shell", "chmod +x run.sh && ./run.sh", "", ""},
	{"shell", "find . -name '*.go' -not -path './.worktrees/*' | xargs wc -l", "", ""},
	{"shell", "rm -rf build", "", ""},
	{"rust", "cargo init -q --vcs none --name rs rs", "cargo", ""},
	{"rust", "cd rs && cargo build -q --offline", "cargo", ""},
}

// compatProject lays out a small Go, Node and Python project with a
// Makefile in a git repository.
func compatProject(w *world) {
	w.write("go.mod", "module example.com/hello\n\ngo 1.22\n")
	w.write("main.go", "package main\n\nfunc main() { println(\"hello\") }\n")
	w.write("main_test.go", "package main\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n")
	w.write("package.json", `{"name":"compat","version":"1.0.0","scripts":{"test":"node -e \"console.log('tests pass')\"","build":"node -e \"require('fs').writeFileSync('dist.js','x')\""}}`+"\n")
	w.write("src/write.py", "open('py-out.txt', 'w').write('x')\n")
	w.write("src/test_nothing.py", "import unittest\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pass\n")
	w.write("Makefile", "all:\n\techo built > built.txt\ntest:\n\ttest -f built.txt\nclean:\n\trm -f built.txt\n")
	w.write("README.md", "hello\n")
	w.write("run.sh", "#!/bin/sh\necho ran\n")
	w.write(".gitignore", ".venv/\n.worktrees/\nrs/target/\n")
	w.git("init", "-q", "-b", "main")
	w.git("config", "user.name", "t")
	w.git("config", "user.email", "t@example.com")
	w.git("add", ".")
	w.git("commit", "-qm", "start")
}

// Everyday commands run confined to the workspace without asking for
// more, except those the policy is meant to withhold: the table goes to
// docs/benchmarks.md (set PONDER_COMPAT_REPORT to a file to get it).
func TestWorkspaceCompatibility(t *testing.T) {
	haveWorkspaceSandbox(t)
	var steps []compatStep
	var skipped []string
	for _, s := range compatSteps {
		if s.needs != "" {
			if _, err := exec.LookPath(s.needs); err != nil {
				skipped = append(skipped, s.cmd)
				continue
			}
		}
		steps = append(steps, s)
	}
	w := newWorld(t, "anthropic")
	w.timeout = 8 * time.Minute
	w.extraEnv = append(w.extraEnv, "XDG_CACHE_HOME="+t.TempDir(), "PATH="+os.Getenv("PATH"))
	for _, v := range []string{"RUSTUP_HOME", "GOPATH", "GOMODCACHE"} {
		if val := os.Getenv(v); val != "" {
			w.extraEnv = append(w.extraEnv, v+"="+val)
		}
	}
	if os.Getenv("RUSTUP_HOME") == "" {
		if home, err := os.UserHomeDir(); err == nil {
			w.extraEnv = append(w.extraEnv, "RUSTUP_HOME="+filepath.Join(home, ".rustup"))
		}
	}
	compatProject(w)
	var calls []fakemodel.ToolCall
	for _, s := range steps {
		calls = append(calls, bashCall(s.cmd))
	}
	w.srv.Add(callsThenDone("everyday", calls)...)
	w.mustRun(0, "", "-p", "everyday", "--allowedTools", "Bash")
	var b strings.Builder
	b.WriteString("| area | command | result |\n|---|---|---|\n")
	ok, escalated := 0, 0
	for i, r := range w.lastResults(len(calls)) {
		s := steps[i]
		res := "runs confined"
		switch {
		case failed(r) && strings.Contains(r.Content, "outside_sandbox"):
			res = "escalates: " + s.escalates
			escalated++
			if s.escalates == "" {
				res = "escalates (unexpected)"
				t.Errorf("%q was withheld something: %s", s.cmd, r.Content)
			}
		case failed(r):
			res = "fails"
			t.Errorf("%q failed: %s", s.cmd, r.Content)
		default:
			ok++
			if s.escalates != "" {
				t.Errorf("%q ran although the policy should withhold %s", s.cmd, s.escalates)
			}
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", s.area, strings.ReplaceAll(s.cmd, "|", "\\|"), res)
	}
	fmt.Fprintf(&b, "\n%d commands: %d run confined with no escalation, %d escalate as the policy means them to.", len(steps), ok, escalated)
	if len(skipped) > 0 {
		fmt.Fprintf(&b, " Not installed here, so not run: %s.", strings.Join(skipped, "; "))
	}
	b.WriteString("\n")
	t.Log("\n" + b.String())
	if p := os.Getenv("PONDER_COMPAT_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}
