package e2e

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// readers are read-only commands a model runs while exploring. Under the
// sandbox each must exit 0 and print exactly what it prints unconfined.
var readers = []string{
	// git
	"git log --oneline", "git log -1 --format=%s", "git log --stat -1 --format=%an", "git show --stat --format=%s HEAD",
	"git show HEAD:main.go", "git diff", "git diff --stat", "git diff HEAD -- dirty.txt", "git blame -s main.go",
	"git status", "git status --short", "git status --porcelain=v2 --branch", "git branch", "git branch -a",
	"git rev-parse HEAD", "git rev-parse --show-toplevel", "git rev-parse --abbrev-ref HEAD", "git ls-files",
	"git ls-tree -r HEAD", "git cat-file -p HEAD^{tree}", "git log --graph --oneline --all", "git shortlog -sn HEAD",
	"git describe --always", "git tag", "git stash list", "git grep -n main", "git remote -v", "git name-rev --name-only HEAD",
	"git for-each-ref --format='%(refname)'", "git config --get core.bare", "git count-objects", "git diff --name-only HEAD",
	"git log --format=%H -1 -- main.go", "git show-ref", "git rev-list --count HEAD", "git --no-pager log -1 --oneline",
	// files and text
	"cat main.go", "head -2 main.go", "tail -1 notes.txt", "wc -l main.go util.go", "wc -c notes.txt", "sort notes.txt",
	"sort -r notes.txt", "sort notes.txt | uniq", "sort notes.txt | uniq -c", "cut -c1-4 notes.txt", "tr a-z A-Z < notes.txt",
	"nl notes.txt", "tac notes.txt", "rev notes.txt", "fold -w 5 notes.txt", "paste -sd, notes.txt", "expand main.go",
	"comm <(sort notes.txt) <(sort notes.txt)", "diff main.go main.go", "cmp main.go main.go", "md5sum main.go",
	"sha256sum main.go util.go", "sha1sum notes.txt", "base64 notes.txt", "od -c notes.txt | head -3", "xxd main.go | head -2",
	"hexdump -C notes.txt | head -2", "strings main.go", "column -t -s, <<< 'a,b\ncc,d'", `awk '{print $1}' notes.txt`,
	`awk 'END {print NR}' notes.txt`, "sed -n 1p notes.txt", "sed -n '/apple/p' notes.txt", "sed 's/apple/pear/' notes.txt",
	"grep -n main main.go", "grep -rn package .", "grep -c apple notes.txt", "grep -l main *.go", "grep -E 'app|ban' notes.txt",
	"rg -n main --sort path", "rg --files --sort path", "rg -c apple notes.txt", "jq . data.json", "jq -r .name data.json",
	"jq '.items | length' data.json",
	// directories and metadata
	"ls", "ls -la main.go", "ls -R --ignore=.git", "find . -name '*.go' | sort", "find . -type f -not -path './.git/*' | sort",
	"find . -maxdepth 1 -newer go.mod -name '*.go' | sort", "stat -c '%n %s' main.go", "file main.go", "du -s --apparent-size main.go",
	"readlink -f main.go", "realpath notes.txt", "basename $PWD", "dirname $PWD/main.go", "pwd", "test -f main.go && echo yes",
	"[ -d .git ] && echo repo",
	// archives
	"tar -tf a.tar", "tar -tvf a.tar", "unzip -l a.zip", "unzip -p a.zip inside.txt", "gzip -c notes.txt | gzip -dc",
	"bzip2 -c notes.txt | bzip2 -dc", "xz -c notes.txt | xz -dc",
	// shell and system
	"echo hello", "printf '%s-%s\\n' a b", "seq 1 5", "expr 1 + 2", "date -u -d @0", "id -u", "uname -s", "whoami",
	"which git", "type ls", "command -v go", "true", "env -i PATH=/usr/bin printenv PATH", "getconf PAGESIZE",
	// toolchains
	"go version", "go env GOOS GOARCH GOROOT", "go list ./...", "go list -m", "go list -f '{{.Name}}' .",
	"go doc -short strings.Cut", "go list -json . | jq -r .ImportPath", "node -e 'console.log(1 + 1)'",
	"/usr/bin/python3 -c 'print(2 * 21)'", "perl -e 'print 40 + 2, qq(\\n)'", "npm ls", "npm pkg get name",
	"man -P cat ls | head -3",
}

// TestReadersWorkInTheSandbox runs every reader in plan mode with the
// command check off, so each runs confined whatever the check would say,
// and compares its result with the same command run unconfined.
func TestReadersWorkInTheSandbox(t *testing.T) {
	haveSandbox(t, "landlock")
	if len(readers) < 100 {
		t.Fatalf("only %d readers", len(readers))
	}
	sw := newSandboxWorld(t, "anthropic", "PONDER_TEST_CLASSIFIER=off")
	var want, run []string
	for _, c := range readers {
		out, ok := sw.unconfined(t, c)
		if !ok {
			t.Logf("skipped, not installed here: %s", c)
			continue
		}
		want = append(want, out)
		run = append(run, c)
	}
	if len(run) < 100 {
		t.Fatalf("only %d readers can run here", len(run))
	}
	// The unconfined runs above may fill caches; what the confined ones
	// change is measured from here.
	before := sw.deepSnapshot(t)
	var calls []fakemodel.ToolCall
	for _, c := range run {
		calls = append(calls, bashCall(c))
	}
	results, out := (&planWorld{world: sw.world, id: sw.id}).resumeWith(t, "read "+sw.marker, calls)
	if !strings.Contains(out, `"sandbox":"landlock"`) {
		t.Fatal("not run under Landlock")
	}
	for i, r := range results {
		if failed(r) || r.Content != want[i] {
			t.Errorf("%q under the sandbox:\n%s\nunconfined:\n%s", run[i], r.Content, want[i])
		}
	}
	if diff := diffSnapshots(before, sw.deepSnapshot(t)); len(diff) > 0 {
		t.Errorf("readers changed things:\n%s", strings.Join(diff, "\n"))
	}
	if left := sw.scratchLeft(); len(left) > 0 {
		t.Errorf("scratch directories left behind: %v", left)
	}
}

// unconfined runs c as ponder's Bash tool would, without the sandbox, and
// formats its output as the tool does. It must exit 0; ok is false when a
// program it needs is not installed.
func (sw *sandboxWorld) unconfined(t *testing.T, c string) (out string, ok bool) {
	t.Helper()
	cmd := exec.Command("bash", "-c", c)
	cmd.Dir = sw.dir
	// npm's update notice needs the network, which the sandbox closes
	// (and tells npm not to try): the reference goes without it too.
	cmd.Env = append(sw.env(), "GIT_OPTIONAL_LOCKS=0", "npm_config_update_notifier=false")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		if ee, isExit := err.(*exec.ExitError); isExit && ee.ExitCode() == 127 {
			return "", false
		}
		t.Fatalf("%q fails even unconfined: %v\n%s", c, err, buf.String())
	}
	if strings.TrimSpace(buf.String()) == "" {
		return "(no output)", true
	}
	return strings.TrimRight(buf.String(), "\n"), true
}
