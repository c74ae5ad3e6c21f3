package shellclass

import (
	"fmt"
	"strings"
	"testing"
)

// attackCase is a line that must not be read-only; opaque says the line
// must also be marked as possibly running commands it does not list.
type attackCase struct {
	cmd    string
	reason string
	opaque bool
}

// The attack tables follow the classes of break an independent review
// found. Each class has several variants, because the fix is for the class.
var attackTables = map[string][]attackCase{
	// The parser and bash read the line differently, so a command could
	// hide from the walk.
	"parser gaps": {
		{"echo $(cat <<EOF\nhi\nEOF)\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"echo $(cat <<'EOF'\nhi\nEOF)\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"x=\"$(cat <<EOF\nhi\nEOF)\"\ntouch pwned\nEOF\n)\"", "here-document delimiter", true},
		{"cat <(cat <<EOF\nhi\nEOF)\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"x=$(cat <<EOF\nhi\nEOF )\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"x=$(cat <<-EOF\nhi\n\tEOF)\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"cat <<EOF\nhi\nEO\\\nF\ntouch pwned\nEOF", "here-document delimiter", true},
		{"x=$(cat <<EOF\nhi\nEO\\\nF\ntouch pwned\nEOF\n)", "here-document delimiter", true},
		{"cat <<EOF\nEOF\r\ncat <<'E2'\nEOF\ntouch pwned\nE2", "here-document delimiter", true},
		{"cat <<$x\nhi\n$x", "cannot parse", true},
		{"cat <<\"$x\"\nhi\n$x", "cannot parse", true},
		{"echo x # note \\\ntouch pwned", "comment that ends with a backslash", true},
		{"# note \\\ntouch pwned", "comment that ends with a backslash", true},
		{"!(touch pwned)", "extglob", true},
		{"true && !(touch pwned)", "extglob", true},
		{"echo x | !(touch pwned)", "extglob", true},
		{"ls @(a|b)", "extglob", true},
		{"sh -c '((touch pwned))'", "read it differently", true},
		{"sh -c '((touch pwned) )'", "read it differently", true},
		{"dash -c '((touch pwned))'", "read it differently", true},
		{"sh -c '(( x = 1 ))'", "read it differently", true},
		{"sh -c 'ls &>/dev/null; ls'", "the code given to sh -c", true},
		{"sh -c '[[ -n x ]] && ls'", "read it differently", true},
		{"sh -c 'function f { ls; }; f'", "the code given to sh -c", true},
		{"sh -c \"$'\\x72m' x\"", "read it differently", true},
		{"dash -c \"$'rm' x\"", "read it differently", true},
		{"zsh -c '=rm x'", "only known at run time", true},
		{"zsh -c 'ls *(e:touch:)'", "read it differently", true},
		{"$\"rm\" x", "only known at run time", true},
		{"$'\\x72\\x6d' x", "only known at run time", true},
		{"{rm,-rf,x}", "only known at run time", true},
		{"/usr/bin/r[m] x", "only known at run time", true},
		{"~root/bin/ls", "only known at run time", true},
		{"r\\\nm x", "deletes files", false},
		{"bash --posix -c 'rm x'", "deletes files", false},
		{"bash -o posix -c 'rm x'", "deletes files", false},
		{"sh -c 'eval rm x'", "deletes files", false},
		{"eval \"$x\"", "only known at run time", true},
		{"alias ls=rm; ls x", "aliases", true},
		{"shopt -s expand_aliases; alias ls=rm", "expand_aliases", false},
		{"a[$(touch pwned)]=1", "command output", false},
		{"a['$(touch pwned)']=1", "command substitution", false},
		{"echo ${a[$(touch pwned)]}", "command output", false},
		{"echo $((a[$(touch pwned)]))", "command output", false},
	},
	// Builtins that run or evaluate what they are given.
	"builtins": {
		{"jobs -x touch pwned", "jobs\" -x runs", false},
		{"jobs -x ls", "jobs\" -x runs", false},
		{"jobs -lx touch pwned", "not known to be safe", true},
		{"declare -a 'a=([$(touch pwned)]=1)'", "array assignment", true},
		{"declare -a \"a=([\\$(touch pwned)]=1)\"", "array assignment", true},
		{"declare -a a='(x $(touch pwned))'", "array assignment", true},
		{"a=(); declare a='(x $(touch pwned))'", "array assignment", true},
		{"declare -ga a='(x $(touch pwned))'", "array assignment", true},
		{"declare -a a+='(x $(touch pwned))'", "array assignment", true},
		{"local -a 'a=([$(touch pwned)]=1)'", "array assignment", true},
		{"typeset -A 'a=([k]=$(touch pwned))'", "array assignment", true},
		{"readonly -a 'a=([$(touch pwned)]=1)'", "array assignment", true},
		{"export -a 'a=([$(touch pwned)]=1)'", "array assignment", true},
		{"f() { local a=(); local a='(x $(touch pwned))'; }; f", "array assignment", true},
		{"declare -a a=$v", "array assignment", true},
		{"a=(1); declare a=\"$v\"", "array assignment", true},
		{"declare -ai a='(1)'", "integer", true},
		{"declare -A a='([k]=v)'", "array assignment", true},
		{"declare -i a='b[$(touch pwned)]'", "integer", true},
		{"declare -n r='b[$(touch pwned)]'", "name reference", true},
		{"wait -p 'a[$(touch pwned)]'", "not a plain name", false},
		{"wait -n -p 'a[$(touch pwned)]'", "not a plain name", false},
		{"wait -np 'a[$(touch pwned)]'", "not a plain name", false},
		{"wait -p PATH", `"PATH"`, true},
		{"read -a 'a[$(touch pwned)]'", "not a plain name", false},
		{"read -ra 'a[$(touch pwned)]'", "not a plain name", false},
		{"mapfile 'a[$(touch pwned)]'", "not a plain name", false},
		{"readarray -t 'a[$(touch pwned)]'", "not a plain name", false},
		{"printf -v 'a[$(touch pwned)]' x", "not a plain name", false},
		{"printf -v'a[$(touch pwned)]' x", "not a plain name", false},
		{"mapfile -C 'touch pwned' a", "runs a command", true},
		{"shopt -so keyword", "keyword", false},
		{"shopt -s -o keyword", "keyword", false},
		{"shopt -o -s keyword", "keyword", false},
		{"shopt -so allexport", "allexport", false},
		{"shopt -s expand_aliases", "expand_aliases", false},
		{"shopt -s $opt", "only known at run time", false},
		{"set -o keyword", "keyword", false},
		{"set -a", "exports every variable", false},
		{"set -o allexport", "allexport", false},
		{"enable -f ./evil.so evil", "loads shell builtins", true},
		{"enable -n echo", "loads shell builtins", true},
		{"builtin eval 'rm x'", "deletes files", false},
		{"builtin source x.sh", "from a file", true},
		{"builtin enable -f x.so y", "loads shell builtins", true},
		{"command -p rm x", "deletes files", false},
		{"command -- rm x", "deletes files", false},
		{"command $opt rm x", "any option", true},
		{"trap 'touch pwned' EXIT", "traps", true},
		{"trap 'touch pwned' DEBUG; ls", "traps", true},
		{"complete -C 'touch pwned' ls", "completion", true},
		{"compgen -C 'touch pwned' x", "can run commands", true},
		{"fc -s ls", "re-runs commands", true},
		{"hash -p /bin/rm ls; ls x", "-p sets the program", true},
		{"hash -rp /bin/rm ls", "-p sets the program", true},
		{"source ./x.sh", "from a file", true},
		{". ./x.sh", "from a file", true},
		{"exec -c git status", "clears the environment", true},
	},
	// Environment variables that make a reader write or run programs.
	"environment": envAttacks(),
	// Options of readers that write or run programs.
	"output options": {
		{"git rev-list --output=out HEAD", "--output", false},
		{"git blame --output=out main.go", "--output", false},
		{"git annotate --output=out main.go", "--output", false},
		{"git log --output=out", "--output", false},
		{"git log --out=out", "--output", false},
		{"git log --outp out", "--output", false},
		{"git diff --output out", "--output", false},
		{"git show --output=out HEAD", "--output", false},
		{"git shortlog --output=out", "--output", false},
		{"git diff-tree --output=out HEAD", "--output", false},
		{"git cherry --output=out", "--output", false},
		{"git ls-remote --exec=touch https://example.com/r", "--exec", false},
		{"git ls-remote --upload-pack=touch https://example.com/r", "--upload-pack", false},
		{"git ls-remote -u touch https://example.com/r", "not read-only", false},
		{"git ls-remote origin", "only http, https and git URLs", false},
		{"git ls-remote 'ext::sh -c touch% pwned'", "only http, https and git URLs", false},
		{"git ls-remote ssh://host/r", "only http, https and git URLs", false},
		{"git ls-remote", "without a URL", false},
		{"git -c core.pager=touch log", "sets configuration", true},
		{"git -c alias.x=push x", "sets configuration", true},
		{"git --config-env=core.pager=EVIL log", "sets configuration", true},
		{"git --exec-path=./bin log", "sets configuration", true},
		{"git --git-dir=x log", "not checked", false},
		{"git help log", "manual viewer", false},
		{"git lg", "alias", true},
		{"git --no-pager lg", "alias", true},
		{"git --git-dir=.git lg", "alias", true},
		{"git rebase -x 'touch p' HEAD~1", "creates or changes files", false},
		{"git submodule foreach 'touch p'", "creates or changes files", false},
		{"awk 'BEGIN { system(\"touch p\") }'", "system()", true},
		{"sed 's/x/touch p/e' f", "s///e", true},
		{"vim -es -c 'w! p' f", "edits files", true},
		{"man -P 'touch p' ls", "not a known read-only command", true},
		{"tmux new 'touch p'", "not a known read-only command", true},
		{"git log --help", "manual viewer", false},
		{"git --help log", "manual viewer", false},
		{"git log --show-signature", "--show-signature", false},
		{"git log --format=%GS", "gpg", false},
		{"git log --format=%G?", "any option", false},
		{"git show --pretty='%GS %GK' HEAD", "gpg", false},
		{"git verify-commit HEAD", "not a read-only git command", false},
		{"git verify-tag v1", "not a read-only git command", false},
		{"git cat-file --textconv HEAD:main.go", "--textconv", false},
		{"git cat-file --filters HEAD:main.go", "--filters", false},
		{"go list -gcflags=-o=/tmp/x ./...", "gcflags", false},
		{"go list -gcflags=all=-o=/tmp/x ./...", "gcflags", false},
		{"go list -cpuprofile=x ./...", "cpuprofile", false},
		{"go list -memprofile x ./...", "memprofile", false},
		{"go list -trace=x ./...", "trace", false},
		{"go list -toolexec=x ./...", "toolexec", false},
		{"go list -exec x ./...", "exec", false},
		{"go list -o x ./...", "-o", false},
		{"go list -export ./...", "export", false},
		{"go list -compiled ./...", "compiled", false},
		{"go list -modfile=x.mod ./...", "modfile", false},
		{"go list -mod=mod ./...", "go.mod", false},
		{"go list -u -m all", "-u", false},
		{"go list -m -versions golang.org/x/net", "versions", false},
		{"go list -m golang.org/x/net@latest", "downloaded", false},
		{"go doc -http", "http", false},
		{"go version -o x", "-o", false},
		{"go env -w GOFLAGS=-x", "changes the Go configuration", false},
		{"go vet -vettool=./x ./...", "runs another program", false},
		{"gofmt -cpuprofile x .", "cpuprofile", false},
		{"sort -oout f", "-o writes a file", false},
		{"sort --output=out f", "-o writes a file", false},
		{"sort --outp=out f", "-o writes a file", false},
		{"curl -oout https://example.com", "writes to", false},
		{"curl --output out https://example.com", "writes to", false},
		{"curl -D hdrs https://example.com", "writes to", false},
		{"curl -c jar https://example.com", "option -c", false},
		{"curl --trace log https://example.com", "--trace", false},
		{"wget -Oout https://example.com", "writes a file", false},
		{"wget -o log -O - https://example.com", "option -o", false},
		{"tree -ofile", "writes files", false},
		{"tree --output=file", "writes files", false},
		{"find . -fprintf out %p", "writes to a file", false},
		{"find . -fls out", "writes to a file", false},
		{"rg --pre=touch x", "runs a program", false},
		{"less -o log f", "option -o", false},
		{"less -Olog f", "option -O", false},
		{"less -k keys f", "option -k", false},
		{"xxd -r hex bin", "-r", false},
		{"yq --split-exp '.a' f.yaml", "writes files", false},
		{"tar -tf a.tar -I 'sh -c touch'", "not read-only", false},
		{"tar -tf a.tar --use-compress-program=x", "not read-only", false},
		{"tar -tf a.tar --checkpoint-action=exec=x", "not read-only", false},
	},
	// Readers with side effects outside their output.
	"side effects": {
		{"npm ls", "log files", false},
		{"npm view left-pad", "log files", false},
		{"npm ll --json", "log files", false},
		{"go vet ./...", "build cache", false},
		{"go vet .", "build cache", false},
		{"unzip -T a.zip", "option -T", false},
		{"unzip -lT a.zip", "option -T", false},
		{"git fetch", "not a read-only git command", false},
		{"git describe --always --dirty", "--dirty", false},
		{"git describe --broken", "--broken", false},
		{"git describe --dirt", "--dirty", false},
		{"git fetch --dry-run", "not a read-only git command", false},
		{"git pull --dry-run", "not a read-only git command", false},
		{"tar -t --to-command='touch x' -f a.tar", "not read-only", false},
		{"tar --list --to-command=x --file a.tar", "not read-only", false},
		{"find . -fprint out", "writes to a file", false},
		{"find . -fprint0 out", "writes to a file", false},
		{"sort -o f f", "-o writes a file", false},
		{"sort -T . f", "temporary files", false},
		{"uniq a b", "second file", false},
		{"uniq -c a b", "second file", false},
		{"tee f", `"tee" writes to "f"`, false},
		{"ls | tee -a f", `"tee" writes to "f"`, false},
		{"awk '{print > \"f\"}' g", "redirects print output", false},
		{"awk 'BEGIN { system(\"touch x\") }'", "system()", false},
		{"sed -i s/a/b/ f", "in place", false},
		{"sed 'w out' f", "w command", false},
		{"sed 's/x/touch y/e' f", "s///e", false},
		{"xargs touch < list", "creates or changes files", false},
		{"vim -c 'w! x' f", "edits files", false},
		{"vi -es f", "edits files", false},
		{"python -c 'open(\"x\",\"w\")'", "runs code", true},
		{"python3 -m http.server", "runs code", true},
		{"node -e 'x'", "runs code", true},
		{"perl -e 'unlink \"x\"'", "runs code", true},
		{"echo 'import os' | python3", "runs code", true},
		{"python3 - <<'EOF'\nimport os\nEOF", "runs code", true},
		{"pip list --outdated", "--outdated", false},
		{"pip list -o", "option -o", false},
		{"pip list --log x", "--log", false},
		{"git help status", "manual viewer", false},
	},
	// Processes that outlive the call.
	"background jobs": {
		{"ls &", "background job", false},
		{"sleep 99 &", "background job", false},
		{"( sleep 3; ls ) &", "background job", false},
		{"{ sleep 3; ls; } &", "background job", false},
		{"ls | grep x &", "background job", false},
		{"f() { sleep 9; }; f &", "background job", false},
		{"timeout 5 sleep 1 &", "background job", false},
		{"nice ls &", "background job", false},
		{"stdbuf -oL ls &", "background job", false},
		{"sleep 1 & wait", "background job", false},
		{"ls & disown", "background job", false},
		{"sh -c 'sleep 9 &'", "background job", false},
		{"bash -c 'sleep 9 & wait'", "background job", false},
		{"coproc sleep 9", "coproc", false},
		{"coproc x { sleep 9; }", "coproc", false},
		{"setsid sleep 9", "detached", false},
		{"setsid -f ls", "detached", false},
		{"nohup sleep 9", "nohup.out", false},
	},
	// Resource limits (a crash then writes a core file).
	"limits": {
		{"ulimit -c unlimited", "changes a resource limit", false},
		{"ulimit -c 0", "changes a resource limit", false},
		{"ulimit -Sc unlimited", "changes a resource limit", false},
		{"ulimit -Hc unlimited", "changes a resource limit", false},
		{"ulimit unlimited", "changes a resource limit", false},
		{"ulimit -n 10", "changes a resource limit", false},
		{"ulimit -c $n", "could set a limit", false},
		{"ulimit -c unlimited; ls", "changes a resource limit", false},
		{"prlimit --core=unlimited ls", "resource limits", false},
	},
}

// envAttacks builds the environment table: every variable in every form
// that hands it to programs, and removals of what ponder sets.
func envAttacks() []attackCase {
	vars := []string{
		"GIT_EXTERNAL_DIFF=./x", "GIT_CONFIG_PARAMETERS=\"'core.pager'='touch x'\"",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=touch",
		"GIT_SSH_COMMAND=./x", "GIT_PAGER=./x", "PAGER=./x", "MANPAGER='sh -c x'",
		"LESSOPEN='|touch x'", "LESSCLOSE=x", "EDITOR=./x", "VISUAL=./x", "PIP_LOG=log",
		"npm_config_script_shell=./x", "NPM_CONFIG_SCRIPT_SHELL=./x", "npm_config_logs_dir=.",
		"SSLKEYLOGFILE=keys", "WGETRC=./rc", "CURL_HOME=.", "LD_PRELOAD=./x.so",
		"LD_LIBRARY_PATH=.", "PATH=./bin:$PATH", "BASH_ENV=./x", "ENV=./x",
		"PROMPT_COMMAND=x", "PS4='$(touch x)'", "NODE_OPTIONS=--require=./x",
		"PYTHONSTARTUP=x", "PYTHONPATH=.", "PERL5OPT=-Mx", "RUBYOPT=-rx", "GOFLAGS=-toolexec=x",
		"GOENV=./env", "HOME=.", "XDG_CONFIG_HOME=.", "GCONV_PATH=.", "http_proxy=http://x",
		"HTTPS_PROXY=http://x", "GIT_OPTIONAL_LOCKS=1", "GIT_DIR=x", "LANG=/tmp/x",
		"LC_ALL=../x", "TERM=../../x", "COLUMNS=x", "TMPDIR=.", "FOO=1", "RIPGREP_CONFIG_PATH=x",
		"BASH_FUNC_ls%%='() { touch x; }'",
	}
	var out []attackCase
	for _, v := range vars {
		name, _, _ := strings.Cut(v, "=")
		want := fmt.Sprintf("%q", name)
		if strings.HasPrefix(name, "BASH_FUNC") {
			// Not an assignment for bash: only env hands it over.
			out = append(out, attackCase{"env " + v + " bash -c ls", "not a plain assignment", true})
			continue
		}
		forms := []string{v + " git log", "export " + v + "; git log", "declare -x " + v + "; git log", v + "; git log"}
		for _, f := range forms {
			out = append(out, attackCase{f, want, true})
		}
		// An unquoted expansion in env's arguments could split into
		// options, so those are refused before the name is looked at.
		envWant := want
		if v == "PATH=./bin:$PATH" {
			envWant = "any option"
		}
		out = append(out, attackCase{"env " + v + " git log", envWant, true})
	}
	out = append(out,
		attackCase{"unset GIT_OPTIONAL_LOCKS; git status", `"GIT_OPTIONAL_LOCKS"`, true},
		attackCase{"env -u GIT_OPTIONAL_LOCKS git status", `"GIT_OPTIONAL_LOCKS"`, true},
		attackCase{"env --unset=GIT_OPTIONAL_LOCKS git status", `"GIT_OPTIONAL_LOCKS"`, true},
		attackCase{"env -i git status", "clears the environment", true},
		attackCase{"env - git status", "clears the environment", true},
		attackCase{"export -n GIT_OPTIONAL_LOCKS; git status", `"GIT_OPTIONAL_LOCKS"`, true},
		attackCase{"declare +x GIT_OPTIONAL_LOCKS; git status", `"GIT_OPTIONAL_LOCKS"`, true},
		attackCase{"read PAGER <<< x; git log", `"PAGER"`, true},
		attackCase{"for GIT_DIR in x; do git log; done", `"GIT_DIR"`, true},
		attackCase{": ${PAGER:=./x}; git log", `"PAGER"`, true},
		attackCase{"printf -v PAGER ./x; git log", `"PAGER"`, true},
		attackCase{"mapfile -t npm_config_x < f", `"npm_config_x"`, true},
		attackCase{"xargs --process-slot-var=PATH ls", "process-slot-var", true},
	)
	return out
}

func TestClassifyAttacks(t *testing.T) {
	total := 0
	for class, cases := range attackTables {
		if len(cases) < 5 {
			t.Errorf("class %s has only %d variants", class, len(cases))
		}
		for _, tc := range cases {
			total++
			t.Run(class+"/"+tc.cmd, func(t *testing.T) {
				got := Classify(tc.cmd)
				if got.ReadOnly {
					t.Fatalf("Classify(%q) is read-only", tc.cmd)
				}
				if !strings.Contains(got.Reason, tc.reason) {
					t.Errorf("Classify(%q).Reason = %q, want it to contain %q", tc.cmd, got.Reason, tc.reason)
				}
				if tc.opaque && got.Opaque == "" {
					t.Errorf("Classify(%q) is not marked opaque (reason %q)", tc.cmd, got.Reason)
				}
			})
		}
	}
	if total < 300 {
		t.Errorf("only %d attack cases", total)
	}
}

// readers must stay read-only: the fixes above may not cost what plan mode
// is for.
var readers = []string{
	"git log --oneline -n 20", "git diff --stat HEAD~1", "git show HEAD:go.mod", "git status --short",
	"git blame -L 1,10 main.go", "git rev-list --count HEAD", "git diff --output-indicator-new=+",
	"git ls-remote https://github.com/golang/go", "git help", "git --no-pager log -p",
	"grep -rn TODO .", "rg -n 'func main' --type go", "find . -name '*.go' -not -path './vendor/*'",
	"cat go.mod", "ls -la", "head -50 README.md", "wc -l $(git ls-files)", "jq '.name' package.json",
	"go doc fmt.Println", "go doc -all net/http", "go list ./...", "go list -m -json all",
	"go list -f '{{.Dir}}' ./...", "go list -json=Name,Dir ./...", "go env GOPATH GOMODCACHE",
	"go version -m ./bin/x", "go mod why -m golang.org/x/net",
	"LC_ALL=C sort -u f", "TZ=UTC date", "NO_COLOR=1 ls --color=auto", "COLUMNS=200 ps aux",
	"GIT_PAGER=cat git log -1", "GIT_OPTIONAL_LOCKS=0 git status", "LANG=en_US.UTF-8 ls",
	"export LANG=C; ls", "env LC_ALL=C TERM=xterm-256color ls", "foo=1; echo $foo",
	"x=$(git rev-parse HEAD); echo \"$x\"", "f() { local x=$(date); echo $x; }; f",
	"declare -a arr=(1 2 3); echo ${arr[@]}", "readonly n=5; echo $n", "unset foo",
	"while IFS= read -r line; do echo \"$line\"; done < f", "for f in *.go; do wc -l \"$f\"; done",
	"ulimit -a", "ulimit -c", "ulimit", "shopt -s nullglob; ls *.go", "shopt -p", "set -o pipefail; ls | wc -l",
	"jobs -l", "wait", "sleep 0.1", "time ls", "cat <<'EOF'\nhello\nEOF",
	"curl -s https://example.com", "wget -qO- https://example.com", "tar -tzf a.tgz", "unzip -l a.zip",
	"sh -c 'ls | head'", "dash -c 'ls -1'", "bash -c 'echo $((1+2))'", "bash --posix -c 'ls'", "zsh -c 'ls'",
	"echo $(cat <<EOF\nhi\nEOF\n)", "diff <(ls a) <(ls b)", "pip show pip", "pip freeze",
}

func TestReadersStayReadOnly(t *testing.T) {
	for _, cmd := range readers {
		if got := Classify(cmd); !got.ReadOnly || got.Opaque != "" {
			t.Errorf("Classify(%q) = read-only %v, reason %q, opaque %q", cmd, got.ReadOnly, got.Reason, got.Opaque)
		}
	}
}
