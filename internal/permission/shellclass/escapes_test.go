package shellclass

import (
	"slices"
	"testing"
)

// Options through which an allowed command writes a file or runs a
// program: a write is listed in Writes (it needs its own yes, as a
// redirection does), a program makes the line opaque.
func TestOptionEscapes(t *testing.T) {
	writes := []struct{ cmd, target string }{
		{"git diff --output=/h/.bashrc", "/h/.bashrc"},
		{"git diff --output /h/.bashrc", "/h/.bashrc"},
		{"git diff --outp=/h/x", "/h/x"},
		{"git -C . --no-pager diff --output=/h/x", "/h/x"},
		{"git log --output=/h/x", "/h/x"},
		{"git show --output=/h/x HEAD", "/h/x"},
		{"git stash show --output=/h/x", "/h/x"},
		{"git whatchanged --output=/h/x", "/h/x"},
		{"git archive -o /h/x HEAD", "/h/x"},
		{"git archive -o/h/x HEAD", "/h/x"},
		{"git archive --output=/h/x HEAD", "/h/x"},
		{"git format-patch -o /h/dir HEAD~1", "/h/dir"},
		{"git format-patch --output-directory=/h/dir HEAD~1", "/h/dir"},
		{"sort -o /h/x f", "/h/x"},
		{"sort -ro/h/x f", "/h/x"},
		{"sort --unknown-option -o /h/x f", "/h/x"},
		{"sort --output=/h/x f", "/h/x"},
		{"sort --outp=/h/x f", "/h/x"},
		{"find . -maxdepth 0 -fprint /h/x", "/h/x"},
		{"find . -fprintf /h/x %p", "/h/x"},
		{"find . -fls /h/x", "/h/x"},
		{"find . -fprint0 /h/x", "/h/x"},
		{"xxd README.md /h/x", "/h/x"},
		{"xxd -c 8 README.md /h/x", "/h/x"},
		{"xxd -r hex /h/x", "/h/x"},
		{"uniq in /h/x", "/h/x"},
		{"go test -o /h/x ./...", "/h/x"},
		{"go test -coverprofile=/h/x ./...", "/h/x"},
		{"go test --cpuprofile /h/x ./...", "/h/x"},
		{"go test ./... -args -test.memprofile=/h/x", "/h/x"},
		{"go test -blockprofile=/h/x -mutexprofile=/h/y .", "/h/x"},
		{"go test -trace=/h/x .", "/h/x"},
		{"go test -outputdir=/h .", "/h"},
		{"go build -o /h/x ./cmd", "/h/x"},
		{"pip list --log /h/x", "/h/x"},
		{"pip3 show --log=/h/x pip", "/h/x"},
		{"npm test --cache=/h/x", "/h/x"},
		{"tree -o /h/x", "/h/x"},
		{"less -o /h/x f", "/h/x"},
		{"curl -s -o /h/x https://x", "/h/x"},
		{"curl -D /h/x https://x", "/h/x"},
		{"wget --output-file=/h/x https://x", "/h/x"},
		{"/usr/lib/git-core/git-diff --output=/h/x", "/h/x"},
		{"git log $opts", "$opts"},
	}
	for _, tc := range writes {
		got := Classify(tc.cmd)
		if got.ReadOnly || !slices.Contains(got.Writes, tc.target) {
			t.Errorf("Classify(%q): read-only %v, writes %q; want %q among the writes", tc.cmd, got.ReadOnly, got.Writes, tc.target)
		}
	}
	runs := []string{
		`git grep --open-files-in-pager="touch p #" two`,
		`git grep -Otouch two`,
		`git grep -O two`,
		`git grep --open-files=vim two`,
		`git fetch --upload-pack="touch p;git-upload-pack" origin`,
		`git fetch --upload-p=x origin`,
		`git pull --upload-pack=x origin`,
		`git ls-remote --upload-pack="touch p" origin`,
		`git ls-remote -u x origin`,
		`git ls-remote --exec=x origin`,
		`git clone -u x /r /d`,
		`git clone --upload-pack=x /r /d`,
		`git clone --template=/t /r /d`,
		`git clone -c core.fsmonitor=x /r /d`,
		`git archive --remote=/r --exec="touch p" HEAD`,
		`git push --receive-pack=x origin`,
		`git send-pack --receive-pack=x /r HEAD`,
		`git fetch-pack --upload-pack=x /r`,
		`go test -exec "sh -c 'touch p'" ./...`,
		`go test -toolexec=x ./...`,
		`go test -vettool=x ./...`,
		`go vet -vettool=/usr/bin/touch ./...`,
		`go build -toolexec x .`,
		`go build -ldflags=-extld=/tmp/x .`,
		`go run -exec x .`,
		`npm test --script-shell=./notes.txt`,
		`npm test --script-sh=./x`,
		`npm run build --userconfig=./rc`,
		`npm test --globalconfig ./rc`,
		`npm test --prefix ../other`,
		`npm test --node-options=--require=./x`,
		`npm exec -c 'touch p'`,
		`npm test $opts`,
		`pip list --python=./x`,
		`curl -K ./cfg https://x`,
		`curl --config ./cfg https://x`,
		`wget -e 'output_document=x' https://x`,
		`sort --compress-program=x f`,
	}
	for _, cmd := range runs {
		got := Classify(cmd)
		if got.ReadOnly || got.Opaque == "" {
			t.Errorf("Classify(%q): read-only %v, opaque %q (reason %q)", cmd, got.ReadOnly, got.Opaque, got.Reason)
		}
	}
	// Standard output and the null device are not files.
	for _, cmd := range []string{
		"curl -s -o /dev/null https://x", "wget -qO- https://x", "wget -O - https://x", "git diff --output=/dev/null",
		"git diff --output-indicator-new=+", "git log -- --output=x", "sort -k1,1 -u f", "xxd f", "go test -run X -v ./...",
		"go test -count=1 -race ./...", "npm test", "git fetch origin", "find . -name '*.go' -print",
	} {
		got := Classify(cmd)
		if len(got.Writes) > 0 || got.Opaque != "" {
			t.Errorf("Classify(%q): writes %q, opaque %q", cmd, got.Writes, got.Opaque)
		}
	}
}
