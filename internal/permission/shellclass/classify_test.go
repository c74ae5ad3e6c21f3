package shellclass

import (
	"slices"
	"strings"
	"testing"
)

// classifyCase is one command line with its expected verdict. reason, when
// set, must be part of Result.Reason.
type classifyCase struct {
	cmd    string
	ro     bool
	reason string
}

var classifyCases = []classifyCase{
	// Empty and unparsable input.
	{"", false, "empty command"},
	{"   \n\t", false, "empty command"},
	{"ls (", false, "cannot parse"},
	{`echo "unterminated`, false, "cannot parse"},
	{"if true; then", false, "cannot parse"},

	// Plain read-only programs.
	{"ls", true, ""},
	{"ls -la src", true, ""},
	{"cat README.md", true, ""},
	{"head -n 20 main.go", true, ""},
	{"tail -f log.txt", true, ""},
	{"wc -l *.go", true, ""},
	{"grep -rn 'func main' .", true, ""},
	{"egrep 'a|b' f", true, ""},
	{"tree -L 2", true, ""},
	{"pwd", true, ""},
	{"echo hello world", true, ""},
	{"printf '%s\\n' a b", true, ""},
	{"true", true, ""},
	{"false", true, ""},
	{"stat go.mod", true, ""},
	{"file main.go", true, ""},
	{"du -sh .", true, ""},
	{"df -h", true, ""},
	{"which go", true, ""},
	{"type ls", true, ""},
	{"realpath .", true, ""},
	{"uname -a", true, ""},
	{"id -u", true, ""},
	{"hostname", true, ""},
	{"env", true, ""},
	{"printenv HOME", true, ""},
	{"cut -d: -f1 /etc/passwd", true, ""},
	{"tr a-z A-Z < f", true, ""},
	{"od -c f", true, ""},
	{"xxd f", true, ""},
	{"strings bin", true, ""},
	{"diff a b", true, ""},
	{"cmp a b", true, ""},
	{"jq . f.json", true, ""},
	{"column -t f", true, ""},
	{"seq 10", true, ""},
	{"sha256sum f", true, ""},
	{"base64 -d f", true, ""},
	{"less f", true, ""},
	{"rg foo", true, ""},
	{"rg -n --glob '*.go' foo src", true, ""},
	{"ag foo", true, ""},
	{"date", true, ""},
	{"date +%Y-%m-%d", true, ""},
	{"sort f", true, ""},
	{"sort -u -k2,2 f", true, ""},
	{"uniq -c f", true, ""},
	{"yq '.a' f.yaml", true, ""},
	{"LS -la", false, `"LS" is not a known read-only command`},
	{"make", false, `"make" is not a known read-only command`},
	{"make install", false, "not a known read-only command"},
	{"frobnicate", false, "not a known read-only command"},

	// Redirections.
	{"echo hi > main.go", false, `redirects output to "main.go"`},
	{"echo hi >> main.go", false, `redirects output to "main.go"`},
	{"ls > /dev/null", true, ""},
	{"ls 2>&1", true, ""},
	{"ls >&2", true, ""},
	{"ls 2>/dev/null | head", true, ""},
	{"ls &>/dev/null", true, ""},
	{"ls > /dev/stderr", true, ""},
	{"ls >| f", false, "redirects output"},
	{"ls &> f", false, "redirects output"},
	{"ls &>> f", false, "redirects output"},
	{"ls >& f", false, "redirects output"},
	{"cat <> f", false, "redirects output"},
	{"ls > $f", false, "file named by $f"},
	{"ls 3>out", false, "redirects output"},
	{"exec 3>&1", true, ""},
	{"ls {fd}>&1", false, "file descriptor in the variable"},
	{"cat < in.txt", true, ""},
	{"cat <<EOF\nhi\nEOF", true, ""},
	{"cat <<EOF > f\nhi\nEOF", false, "redirects output"},
	{"cat <<EOF\n$(rm x)\nEOF", false, `"rm" deletes files`},
	{"cat <<'EOF'\n$(rm x)\nEOF", true, ""},
	{`cat <<< "x"`, true, ""},
	{"printf '%s' x > f", false, "redirects output"},
	{"{ ls; } > out", false, "redirects output"},
	{"for f in *; do cat $f; done > all", false, "redirects output"},

	// Lists, pipelines and compound commands.
	{"git status && rm -rf /", false, `"rm" deletes files`},
	{"git log; git push", false, `"git push" is not a read-only git command`},
	{"ls | grep foo | sort | uniq -c", true, ""},
	{"ls || echo none", true, ""},
	{"ls &", false, "background job"},
	{"! grep -q x f", true, ""},
	{"cd src && ls", true, ""},
	{"(cd src; rm x)", false, "deletes files"},
	{"(cd src; ls)", true, ""},
	{"{ ls; rm x; }", false, "deletes files"},
	{"for f in *; do rm $f; done", false, "deletes files"},
	{"for f in *; do cat $f; done", true, ""},
	{"while read -r line; do echo \"$line\"; done < f", true, ""},
	{"ls \\\n  -la", true, ""},
	{"if true; then rm x; fi", false, "deletes files"},
	{"if [ -f x ]; then cat x; else echo no; fi", true, ""},
	{"case $x in a) ls;; *) rm y;; esac", false, "deletes files"},
	{"case $x in a) ls;; *) echo y;; esac", true, ""},
	{"[[ -f go.mod && $x == y* ]]", true, ""},
	{"[ -d src ] && ls src", true, ""},
	{"test -n \"$x\"", true, ""},
	{"time ls", true, ""},
	{"time rm x", false, "deletes files"},
	{"coproc ls", false, "coproc"},

	// Functions.
	{"f() { rm x; }; f", false, "deletes files"},
	{"f() { ls; }; f", true, ""},
	{"f", false, "not a known read-only command"},
	{"make; make() { ls; }", false, "not a known read-only command"},
	{"if false; then make() { ls; }; fi; make", false, "not a known read-only command"},
	{"make() { ls; }; command make", false, "not a known read-only command"},
	{"make() { ls; }; unset -f make; make", false, "not a known read-only command"},
	{"rm() { ls; }; rm -rf /", false, "deletes files"},
	{"trap() { ls; }; trap 'rm x' EXIT", false, "traps"},
	{"(f() { ls; }); f", false, "not a known read-only command"},
	{"f() { ls; } & f", false, "background job"},

	// Substitutions.
	{"echo $(rm x)", false, "deletes files"},
	{"echo `rm x`", false, "deletes files"},
	{"echo $(date)", true, ""},
	{"cat <(rm x)", false, "deletes files"},
	{"diff <(ls a) <(ls b)", true, ""},
	{"ls > >(tee f)", false, `"tee" writes to "f"`},
	{"ls > >(cat)", false, "redirects output"},
	{"echo ${x:-$(rm y)}", false, "deletes files"},
	{"x=$(rm y)", false, "deletes files"},
	{"echo $((1 + 2))", true, ""},

	// Variables and assignments.
	{"FOO=1 ls", false, `"FOO"`},
	{"FOO=1", false, `"FOO"`},
	{"LC_ALL=C sort f", true, ""},
	{"export FOO=bar", false, `"FOO"`},
	{"declare -a arr=(1 2)", true, ""},
	{"local x=1", true, ""},
	{"readonly X=1", false, `"X"`},
	{"unset FOO", false, `"FOO"`},
	{"set -euo pipefail; ls", true, ""},
	{"set -k", false, "assignments"},
	{"PATH=. ls", false, `"PATH"`},
	{"PATH=.:$PATH; ls", false, `"PATH"`},
	{"export PATH=/tmp", false, `"PATH"`},
	{"LD_PRELOAD=./x.so ls", false, `"LD_PRELOAD"`},
	{"GIT_EXTERNAL_DIFF=rm git diff", false, `"GIT_EXTERNAL_DIFF"`},
	{"PAGER=rm git log", false, `"PAGER"`},
	{"BASH_ENV=x.sh bash -c ls", false, `"BASH_ENV"`},
	{"HOME=. git log", false, `"HOME"`},
	{"declare -n r=PATH; r=.", false, "name reference"},
	{"declare -i x=1", false, "integer"},
	{"for PATH in .; do ls; done", false, `"PATH"`},
	{"read PATH < f", false, `"PATH"`},
	{"echo ${PATH:=.}", false, `"PATH"`},
	{"GIT_PAGER=cat git log", true, ""},
	{"PAGER=less git log", true, ""},
	{"while IFS= read -r line; do echo \"$line\"; done < f", true, ""},
	{"IFS=: read -ra parts <<< \"$PATH\"", true, ""},
	{"zsh -c 'path=(.); ls'", false, `"path"`},
	{"ls # rm -rf /", true, ""},
	{"$CMD x", false, "only known at run time"},
	{"$(echo rm) x", false, "only known at run time"},

	// Arithmetic, which bash may evaluate recursively.
	{"let x=1+2", true, ""},
	{"((i = 0)); ((i++)); echo $i", true, ""},
	{"for ((i=0; i<3; i++)); do echo $i; done", true, ""},
	{"n=5; echo $((n * 2))", true, ""},
	{"x='a[$(rm y)]'; echo $((x))", false, "arithmetic"},
	{"read n; echo $((n + 1))", false, `"n"`},
	{"echo $(( $(cat f) ))", false, "command output"},
	{"let 'a[$(rm y)]'", false, "command substitution"},
	{"[[ $1 -eq 1 ]]", false, `"1"`},
	{"sh -c 'echo $(($1))' _ 'a[$(rm x)]'", false, `"1"`},
	{"for i in $(seq 3); do echo $((i * 2)); done", false, `"i"`},
	{"for i in {1..3}; do echo $((i * 2)); done", true, ""},
	{"a=([$(rm x)]=1)", false, "command output"},
	{"echo ${x:$n:2}", false, `"n"`},
	{"x=5; x+=$(cat f); echo $((x))", false, `"x"`},
	{"echo ${!x}", false, "indirect"},
	{"x='$(rm y)'; echo ${x@P}", false, "@P"},
	{"test -v 'a[$(rm y)]'", false, "subscript"},
	{"[ -v \"$x\" ]", false, "subscript"},
	{"printf -v 'a[$(rm y)]' %s z", false, "not a plain name"},
	{"read 'a[$(rm y)]'", false, "not a plain name"},
	{"[[ -v a[$i] ]]", false, "not a plain variable name"},
	{"echo ${#arr[@]}", true, ""},
	{"echo $((RANDOM % 6)) $(($# + 1))", true, ""},
	{"COLUMNS='a[$(rm y)]'; echo $((COLUMNS))", false, `"COLUMNS"`},
	{"echo $((16#ff + 0x1f))", true, ""},

	// Paths to programs.
	{"./ls", false, "by path"},
	{"./script.sh", false, "by path"},
	{"/bin/ls", true, ""},
	{"/usr/bin/rm x", false, "deletes files"},
	{"/usr/bin/../../tmp/ls", false, "by path"},
	{"bin/tool", false, "by path"},

	// env, timeout, nice, and other wrappers.
	{"env rm -rf x", false, "deletes files"},
	{"env -i FOO=1 rm x", false, "clears the environment"},
	{"env -i FOO=1 ls", false, "clears the environment"},
	{"env -u HOME ls", false, `"HOME"`},
	{"env PATH=. ls", false, `"PATH"`},
	{"env -S 'rm x'", false, "deletes files"},
	{"env -S 'ls -la'", true, ""},
	{"env -S 'ls $HOME'", false, "splits"},
	{"timeout 5 make install", false, "not a known read-only command"},
	{"timeout -s KILL 5 rm x", false, "deletes files"},
	{"timeout 5 ls", true, ""},
	{"nice -n 10 rm x", false, "deletes files"},
	{"nice rm x", false, "deletes files"},
	{"nice -10 ls", true, ""},
	{"nohup ls", false, "nohup.out"},
	{"sudo ls", false, "another user"},
	{"sudo -u root rm x", false, "another user"},
	{"doas ls", false, "another user"},
	{"watch ls", false, "repeatedly"},
	{"stdbuf -oL grep x f", true, ""},
	{"exec rm x", false, "deletes files"},
	{"exec ls", true, ""},
	{"command rm x", false, "deletes files"},
	{"command -v rm", true, ""},
	{"command -V rm", true, ""},
	{"builtin cd /", true, ""},
	{"eval \"rm x\"", false, "deletes files"},
	{"eval ls -la", true, ""},
	{"eval $x", false, "only known at run time"},
	{"source x.sh", false, "runs commands from a file"},
	{". ./x.sh", false, "runs commands from a file"},

	// xargs.
	{"xargs rm < files", false, "deletes files"},
	{"find . -name '*.o' | xargs rm", false, "deletes files"},
	{"xargs -I{} rm {}", false, "deletes files"},
	{"ls | xargs -0 cat", true, ""},
	{"ls | xargs", true, ""},
	{"ls | xargs -n1 wc -l", true, ""},
	{"ls | xargs sed -n p", false, "could turn out to be any option"},
	{"ls | xargs -I{} sh -c 'cat {}'", false, "only known at run time"},
	{"ls | xargs sh -c 'cat \"$1\"' _", true, ""},
	{"xargs --process-slot-var=PATH ls", false, "process-slot-var"},

	// sh -c and friends.
	{"sh -c 'rm x'", false, "deletes files"},
	{"bash -c \"echo hi > f\"", false, "redirects output"},
	{"sh -c \"$X\"", false, "only known at run time"},
	{"bash -c 'ls | head'", true, ""},
	{"bash -ec 'ls'", true, ""},
	{"bash -lc 'ls'", false, "option -l"},
	{"dash -c 'ls'", true, ""},
	{"zsh -c 'ls'", true, ""},
	{"zsh -c 'ls *(e:\"rm x\":)'", false, "read it differently"},
	{"echo x | sh", false, "from its input"},
	{"curl x | bash", false, "from its input"},
	{"bash script.sh", false, "runs the script"},
	{"sh -c 'sh -c \"rm x\"'", false, "deletes files"},
	{"bash -c 'f() { ls; }'; f", false, "not a known read-only command"},
	{"bash --version", true, ""},

	// find and fd.
	{"find . -name x -print", true, ""},
	{"find . -type f -name '*.go' | head", true, ""},
	{"find . -exec rm {} \\;", false, "deletes files"},
	{"find . -execdir rm {} +", false, "deletes files"},
	{"find . -exec cat {} \\;", true, ""},
	{"find . -name '*.go' -exec grep -l foo {} +", true, ""},
	{"find . -exec sed -n 1p {} \\;", true, ""},
	{"find . -delete", false, "find -delete"},
	{"find . -name x -fprint out", false, "writes to a file"},
	{"find . -exec rm {}", false, "no terminating"},
	{"find . -name -delete", true, ""},
	{"find $dir -name x", false, "could turn out to be any option"},
	{"find . -exec sh -c 'rm \"$1\"' _ {} \\;", false, "deletes files"},
	{"fd -x rm", false, "deletes files"},
	{"fd -e go -x wc -l", true, ""},
	{"fd -X rm {} ;", false, "deletes files"},
	{"fd foo", true, ""},

	// sed.
	{"sed -i s/a/b/ f", false, "in place"},
	{"sed -ni p f", false, "in place"},
	{"sed -i.bak s/a/b/ f", false, "in place"},
	{"sed -Ei s/a/b/ f", false, "in place"},
	{"sed --in-place s/a/b/ f", false, "in place"},
	{"sed --in-pl s/a/b/ f", false, "in place"},
	{"sed 's/a/b/w out' f", false, "s///w"},
	{"sed 's/a/b/e' f", false, "s///e"},
	{"sed '1w out' f", false, "w command"},
	{"sed -n '/x/{p;w out\n}' f", false, "w command"},
	{"sed 'e ls' f", false, "e command"},
	{"sed -n 1,5p f", true, ""},
	{"sed 's/a/b/g' f", true, ""},
	{"sed -e 's#/usr#/opt#g' -e '/^$/d' f", true, ""},
	{"sed -n '/start/,/end/{/x/!p}' f", true, ""},
	{"sed 's/[/]/X/' f", true, ""},
	{"sed '1a hello; w out' f", true, ""},
	{"sed ':a;N;$!ba;s/\\n/ /g' f", true, ""},
	{"sed -f script.sed f", false, "from a file"},
	{"sed \"s/$x/y/\" f", false, "only known at run time"},
	{"sed s/a/b/ f -i", false, "in place"},

	// awk.
	{"awk '{print $1}' f", true, ""},
	{"awk -F: '$3 > 100 {print $1}' /etc/passwd", true, ""},
	{"awk '/foo|bar/ {n++} END {print n}' f", true, ""},
	{"awk '{print > \"x\"}' f", false, "redirects print output"},
	{"awk '{printf(\"%s\", $1) >> \"x\"}' f", false, "redirects print output"},
	{"awk 'BEGIN{system(\"rm x\")}'", false, "system()"},
	{"awk '{print | \"sh\"}' f", false, "pipes"},
	{"awk 'BEGIN{\"date\" | getline d; print d}'", false, "pipes"},
	{"awk -i inplace '{print}' f", false, "includes a source file"},
	{"awk -f prog.awk f", false, "from a file"},
	{"gawk '@load \"x\"; {print}' f", false, "@"},
	{"awk '{ if ($1 > 2) print $1 }' f", true, ""},

	// Text tools with writing options.
	{"sort -o out f", false, "-o writes a file"},
	{"sort f -o out", false, "-o writes a file"},
	{"sort --out=x f", false, "-o writes a file"},
	{"sort --compress-program=sh f", false, "runs a program"},
	{"uniq a b", false, "second file"},
	{"uniq -c a", true, ""},
	{"uniq *.txt", false, "could turn out to be any option"},
	{"uniq ./*.txt", false, "second file"},
	{"xxd a b", false, "second file"},
	{"xxd -r hex", false, "-r"},
	{"xxd -l 16 f", true, ""},
	{"date -s '2020-01-01'", false, "clock"},
	{"date --set=x", false, "clock"},
	{"date 0101000026", false, "clock"},
	{"cat x | tee y", false, `"tee" writes to "y"`},
	{"cat x | tee /dev/null", true, ""},
	{"cat x | tee", true, ""},
	{"yq -i '.a = 1' f.yaml", false, "writes files"},
	{"tree -o out.txt", false, "writes files"},
	{"file -C -m magic", false, "compiled magic"},
	{"rg --pre cat foo", false, "runs a program"},
	{"rg --pre=cat foo", false, "runs a program"},
	{"rg \"$pat\" src", false, "could turn out to be any option"},
	{"ag --pager=less foo", false, "runs a program"},
	{"less +!rm f", false, "pager commands"},
	{"hostname newname", false, "sets the host name"},
	{"printf -v x '%s' y", true, ""},

	// git.
	{"git status", true, ""},
	{"git -C sub status", true, ""},
	{"git --no-pager diff", true, ""},
	{"git -c core.pager=x log", false, "sets configuration"},
	{"git diff --output=patch.diff", false, "--output"},
	{"git log --outp=x", false, "--output"},
	{"git diff --output-indicator-new=+ HEAD", true, ""},
	{"git log --oneline -n 5", true, ""},
	{"git show HEAD:main.go", true, ""},
	{"git blame main.go", true, ""},
	{"git diff -- $f", true, ""},
	{"git log $opts", false, "could turn out to be any option"},
	{"git grep -n foo", true, ""},
	{"git grep -O foo", false, "not read-only"},
	{"git stash", false, `"git stash" is not a read-only git command`},
	{"git stash list", true, ""},
	{"git stash show -p", true, ""},
	{"git stash pop", false, "not a read-only git command"},
	{"git branch", true, ""},
	{"git branch -a", true, ""},
	{"git branch -vv", true, ""},
	{"git branch --show-current", true, ""},
	{"git branch --list 'feat/*'", true, ""},
	{"git branch --contains HEAD", true, ""},
	{"git branch -D x", false, "not read-only"},
	{"git branch newbranch", false, "creates a branch"},
	{"git tag", true, ""},
	{"git tag -l 'v1.*'", true, ""},
	{"git tag v1", false, "creates a tag"},
	{"git tag -d v1", false, "not read-only"},
	{"git remote", true, ""},
	{"git remote -v", true, ""},
	{"git remote get-url origin", true, ""},
	{"git remote add x y", false, "changes remotes"},
	{"git config user.name", true, ""},
	{"git config --get user.name", true, ""},
	{"git config --global --list", true, ""},
	{"git config user.name x", false, "changes configuration"},
	{"git config --unset user.name", false, "changes configuration"},
	{"git config set user.name x", false, "changes configuration"},
	{"git reflog", true, ""},
	{"git reflog expire --all", false, "not a read-only git command"},
	{"git worktree list", true, ""},
	{"git worktree add ../x", false, "not a read-only git command"},
	{"git rev-parse --show-toplevel", true, ""},
	{"git ls-files", true, ""},
	{"git checkout -- f", false, "not a read-only git command"},
	{"git clean -fd", false, "not a read-only git command"},
	{"git reset --hard", false, "not a read-only git command"},
	{"git add .", false, "not a read-only git command"},
	{"git commit -m x", false, "not a read-only git command"},
	{"git pull", false, "not a read-only git command"},
	{"git fetch", false, "not a read-only git command"},
	{"git --git-dir=x log", false, "not checked"},
	{"git ls-remote --upload-pack=x origin", false, "upload-pack"},
	{"git --version", true, ""},
	{"git version", true, ""},

	// Go, npm and other toolchains.
	{"go version", true, ""},
	{"go env GOPATH", true, ""},
	{"go env -w X=y", false, "changes the Go configuration"},
	{"go list ./...", true, ""},
	{"go list -m all", true, ""},
	{"go vet ./...", false, "build cache"},
	{"go vet -vettool=/tmp/x ./...", false, "vettool"},
	{"go vet -fix ./...", false, "rewrites"},
	{"go list -toolexec x ./...", false, "toolexec"},
	{"go doc fmt.Println", true, ""},
	{"go mod graph", true, ""},
	{"go mod why golang.org/x/net", true, ""},
	{"go mod tidy", false, "not a read-only go command"},
	{"go test ./...", false, `"go test" is not a read-only go command`},
	{"go build ./...", false, "not a read-only go command"},
	{"go run .", false, "not a read-only go command"},
	{"go generate ./...", false, "not a read-only go command"},
	{"go install ./cmd/x", false, "not a read-only go command"},
	{"gofmt -l .", true, ""},
	{"gofmt -w .", false, "rewrites files"},
	{"npm ls", false, "log files"},
	{"npm view react version", false, "log files"},
	{"npm install", false, "not a read-only npm command"},
	{"npm run build", false, "not a read-only npm command"},
	{"npm --version", true, ""},
	{"node --version", true, ""},
	{"python3 --version", true, ""},
	{"cargo --version", true, ""},
	{"make --version", true, ""},
	{"python -c 'open(\"x\",\"w\")'", false, "runs code"},
	{"python3 script.py", false, "runs code"},
	{"node -e 'require(\"fs\")'", false, "runs code"},
	{"perl -pi -e 's/a/b/' f", false, "runs code"},
	{"ruby -e 'x'", false, "runs code"},
	{"pip list", true, ""},
	{"pip install x", false, "installs"},
	{"pip list --log x.log", false, "--log"},
	{"npm ls --depth=0 --json", false, "log files"},
	{"npm ls --logs-dir=x", false, "log files"},
	{"go list -debug-actiongraph=x ./...", false, "debug"},
	{"gofmt -d -s .", true, ""},
	{"gofmt -cpuprofile x .", false, "cpuprofile"},
	{"kubectl get pods --log-file=x", false, "writes files"},

	// Network, archives and services.
	{"curl https://example.com", true, ""},
	{"curl -sSL https://example.com/x.json", true, ""},
	{"curl -s -H 'Accept: application/json' https://x", true, ""},
	{"curl -o f https://x", false, `"curl" writes to "f"`},
	{"curl -s -o /dev/null -w '%{http_code}' https://x", true, ""},
	{"curl -I https://x", true, ""},
	{"curl -X GET https://x", true, ""},
	{"curl $URL", false, "could turn out to be any option"},
	{"curl \"https://x/$p\"", true, ""},
	{"curl file:///etc/passwd", false, "only http and https"},
	{"curl -O https://x/f", false, "option -O"},
	{"curl -X POST https://x", false, "-X POST"},
	{"curl -XPOST https://x", false, "-X POST"},
	{"curl -d a=b https://x", false, "option -d"},
	{"curl --data a=b https://x", false, "--data"},
	{"curl -T f https://x", false, "option -T"},
	{"curl -K cfg https://x", false, "option -K"},
	{"curl gopher://localhost:6379/_FLUSHALL", false, "gopher"},
	{"curl -w '%output{x}' https://x", false, "write-out"},
	{"wget https://x", false, "saves files"},
	{"wget -qO- https://x", true, ""},
	{"wget -O - https://x", true, ""},
	{"wget -O f https://x", false, "writes a file"},
	{"tar -tf a.tar", true, ""},
	{"tar tzvf a.tgz", true, ""},
	{"tar --list --file=a.tar", true, ""},
	{"tar -xf a.tar", false, "not read-only"},
	{"tar -czf a.tgz dir", false, "not read-only"},
	{"tar -tf host:a.tar", false, "another machine"},
	{"tar -tf a.tar --to-command=sh", false, "not read-only"},
	{"unzip -l a.zip", true, ""},
	{"unzip a.zip", false, "extracts files"},
	{"unzip -o a.zip -d out", false, "not read-only"},
	{"docker ps -a", true, ""},
	{"docker logs -f web", true, ""},
	{"docker image ls", true, ""},
	{"docker run --rm alpine", false, "not a read-only docker command"},
	{"docker rm x", false, "not a read-only docker command"},
	{"kubectl get pods -n x", true, ""},
	{"kubectl -n prod describe pod x", true, ""},
	{"kubectl config view", true, ""},
	{"kubectl delete pod x", false, "not a read-only kubectl command"},
	{"kubectl get pods --kubeconfig=./k", false, "credential plugins"},
	{"systemctl status nginx", true, ""},
	{"systemctl --user list-units", true, ""},
	{"systemctl restart nginx", false, "not read-only"},
	{"systemctl -p status stop x", false, "not read-only"},

	// Programs that always write.
	{"touch x", false, `"touch" creates or changes files`},
	{"mkdir -p d", false, "creates directories"},
	{"ln -s a b", false, "creates links"},
	{"chmod +x f", false, "changes file permissions"},
	{"cp a b", false, "copies files"},
	{"mv a b", false, "moves files"},
	{"rm a", false, `"rm" deletes files`},
	{"dd if=/dev/zero of=x", false, "writes data"},
	{"kill 1", false, "stops processes"},
	{"pkill x", false, "stops processes"},
	{"gzip f", false, "compresses"},
	{"truncate -s 0 f", false, "changes file sizes"},
	{"shred f", false, "destroys"},
	{"history", true, ""},
	{"history -c", false, "history file"},
	{"history -w f", false, "history file"},
	{"alias ls='rm -rf'", false, "aliases"},
	{"trap 'rm x' EXIT", false, "traps"},
	{"hash -p ./x ls", false, "-p"},
}

func TestClassify(t *testing.T) {
	if len(classifyCases) < 150 {
		t.Fatalf("only %d cases; the table must have at least 150", len(classifyCases))
	}
	seen := map[string]bool{}
	for _, tc := range classifyCases {
		if seen[tc.cmd] {
			t.Errorf("duplicate case %q", tc.cmd)
		}
		seen[tc.cmd] = true
		t.Run(tc.cmd, func(t *testing.T) {
			got := Classify(tc.cmd)
			if got.ReadOnly != tc.ro {
				t.Fatalf("Classify(%q).ReadOnly = %v, want %v (reason %q)", tc.cmd, got.ReadOnly, tc.ro, got.Reason)
			}
			if got.ReadOnly && got.Reason != "" {
				t.Errorf("read-only result has reason %q", got.Reason)
			}
			if !got.ReadOnly && got.Reason == "" {
				t.Errorf("not read-only result has no reason")
			}
			if tc.reason != "" && !strings.Contains(got.Reason, tc.reason) {
				t.Errorf("Classify(%q).Reason = %q, want it to contain %q", tc.cmd, got.Reason, tc.reason)
			}
		})
	}
}

func TestClassifyCommands(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
		lit  []bool
	}{
		{"ls -la", []string{"ls -la"}, []bool{true}},
		{"git status && rm -rf /", []string{"git status", "rm -rf /"}, []bool{true, true}},
		{"FOO=1 ls 'a b'", []string{"ls a b"}, []bool{true}},
		{"timeout 5 rm x", []string{"timeout 5 rm x", "rm x"}, []bool{true, true}},
		{"sh -c 'ls | wc -l'", []string{"sh -c ls | wc -l", "ls", "wc -l"}, []bool{true, true, true}},
		{"echo $(date) \"$HOME/x\"", []string{"date", "echo $(date) \"$HOME/x\""}, []bool{true, false}},
		{"find . -exec rm {} \\;", []string{"find . -exec rm {} ;", "rm {}"}, []bool{true, false}},
		{"ls | xargs rm", []string{"ls", "xargs rm", "rm"}, []bool{true, true, false}},
		{"sudo rm -rf x", []string{"sudo rm -rf x", "rm -rf x"}, []bool{true, true}},
		{"export A=1 B=$x", []string{"export A=1 B=$x"}, []bool{false}},
		{"f() { cat x; }; f", []string{"cat x", "f"}, []bool{true, true}},
		{"ls *.go", []string{"ls *.go"}, []bool{false}},
	}
	for _, tc := range tests {
		got := Classify(tc.cmd)
		var strs []string
		var lits []bool
		for _, c := range got.Commands {
			strs = append(strs, c.String())
			lits = append(lits, c.Literal)
		}
		if !slices.Equal(strs, tc.want) || !slices.Equal(lits, tc.lit) {
			t.Errorf("Classify(%q).Commands = %q %v, want %q %v", tc.cmd, strs, lits, tc.want, tc.lit)
		}
	}
}

func TestSedScript(t *testing.T) {
	tests := []struct {
		script string
		ok     bool
	}{
		{"p", true},
		{"s/a/b/gI", true},
		{"$!N;P;D", true},
		{"/x/,+3d", true},
		{"0~2p", true},
		{"\\%x%p", true},
		{"y/abc/xyz/", true},
		{"1i\\\nhello\n2d", true},
		{"/a/ { s/x/y/; p }", true},
		{"r other.txt", true},
		{"s/a/b/w f", false},
		{"s/a/b/3w f", false},
		{"W f", false},
		{"1e date", false},
		{"s/a/b/;w f", false},
		{"s;[;];X;w f", false},
		{"{p", false},
		{"p}", false},
		{"k", false},
		{"s/a/b", false},
		{"1a\\\nx\\\nw f\nw g", false},
	}
	for _, tc := range tests {
		got := sedScript(tc.script)
		if (got == "") != tc.ok {
			t.Errorf("sedScript(%q) = %q, want ok=%v", tc.script, got, tc.ok)
		}
	}
}

func TestAwkProgram(t *testing.T) {
	tests := []struct {
		prog string
		ok   bool
	}{
		{"{print $1}", true},
		{"$3 > 100", true},
		{"NR > 1 { s += $2 } END { print s / NR }", true},
		{"/a|b/", true},
		{"{ print ($1 > 2) }", true},
		{"{ x = a / 2; y = b / 3 }", true},
		{"{print > \"f\"}", false},
		{"{print $1,\n $2 > \"f\"}", false},
		{"{print $1 | \"sort\"}", false},
		{"{ system(\"ls\") }", false},
		{"{ cmd |& getline }", false},
		{"@include \"x\"", false},
		{"/\"/ { print | \"sh\" }", false},
		{"{ x = y++ / 2 }", false},
		{"{ print \"unterminated }", false},
	}
	for _, tc := range tests {
		got := awkProgram(tc.prog)
		if (got == "") != tc.ok {
			t.Errorf("awkProgram(%q) = %q, want ok=%v", tc.prog, got, tc.ok)
		}
	}
}

func TestCommandsReadOnlyOnTheirOwn(t *testing.T) {
	tests := []struct {
		cmd  string
		want []bool
	}{
		{"git diff | tail -5", []bool{true, true}},
		{"npm test && ls > f", []bool{false, true}},
		{"timeout 5 rm x", []bool{true, false}},
		{"sh -c 'ls > f'", []bool{false, true}},
		{"sh -c 'X=1 ls'", []bool{false, true}},
		{"echo $(rm x)", []bool{false, true}},
		{"jobs -x ls", []bool{false, true}},
		{"env PATH=. ls", []bool{false, true}},
		{"curl -o f https://x", []bool{false}},
		{"declare -a 'a=([$(ls)]=1)'", []bool{false}},
		{"f() { rm x; }; ls", []bool{false, true}},
		{"git -c alias.x=y x", []bool{false}},
	}
	for _, tc := range tests {
		var got []bool
		for _, c := range Classify(tc.cmd).Commands {
			got = append(got, c.ReadOnly)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Classify(%q) commands read-only %v, want %v", tc.cmd, got, tc.want)
		}
	}
}
