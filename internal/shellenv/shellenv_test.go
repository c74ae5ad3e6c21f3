package shellenv

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var environ = []string{
	"PATH=/usr/bin:/bin",
	"HOME=/home/u",
	"LANG=C.UTF-8",
	"LC_ALL=C",
	"TERM=xterm",
	"ANTHROPIC_API_KEY=sk-ant-1",
	"anthropic_auth_token=sk-ant-2",
	"OPENAI_API_KEY=sk-3",
	"GITHUB_TOKEN=ghp_x",
	"AWS_SECRET_ACCESS_KEY=aws",
	"DB_PASSWORD=pw",
	"MYSQL_PASSWD=pw",
	"SSH_PASSPHRASE=pp",
	"GOOGLE_APPLICATION_CREDENTIALS=/k.json",
	"my_api_key=lower",
	"DATABASE_URL=postgres://app:hunter2@db:5432/prod",
	"PLAIN_URL=https://example.com/x",
	"KEYBOARD_LAYOUT=us",
	"TOKENIZERS_PARALLELISM=false",
	"EDITOR=vi",
	"GOFLAGS=-mod=mod",
	"SSH_AUTH_SOCK=/tmp/agent",
}

func names(env []string) []string {
	var out []string
	for _, kv := range env {
		n, _, _ := strings.Cut(kv, "=")
		out = append(out, n)
	}
	return out
}

func TestBuild(t *testing.T) {
	cases := []struct {
		name     string
		policy   Policy
		want     []string
		wantNot  []string
		wantVals []string
	}{
		{"default drops credentials and secrets", Policy{},
			[]string{"PATH", "HOME", "LANG", "EDITOR", "GOFLAGS", "SSH_AUTH_SOCK", "KEYBOARD_LAYOUT", "TOKENIZERS_PARALLELISM", "PLAIN_URL"},
			[]string{"ANTHROPIC_API_KEY", "anthropic_auth_token", "OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PASSWD", "SSH_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "my_api_key", "DATABASE_URL"}, nil},
		{"include passes named secrets, never credentials", Policy{Include: []string{"github_*", "DATABASE_URL", "ANTHROPIC_*", "*_api_key"}},
			[]string{"GITHUB_TOKEN", "DATABASE_URL", "my_api_key", "PATH"},
			[]string{"ANTHROPIC_API_KEY", "anthropic_auth_token", "OPENAI_API_KEY", "DB_PASSWORD"}, nil},
		{"exclude wins", Policy{Include: []string{"GITHUB_TOKEN"}, Exclude: []string{"GITHUB_*", "EDITOR"}},
			[]string{"PATH"}, []string{"GITHUB_TOKEN", "EDITOR"}, nil},
		{"core", Policy{Inherit: "core"},
			[]string{"PATH", "HOME", "LANG", "LC_ALL", "TERM"}, []string{"EDITOR", "GOFLAGS", "SSH_AUTH_SOCK", "GITHUB_TOKEN"}, nil},
		{"core with include", Policy{Inherit: "core", Include: []string{"SSH_AUTH_SOCK"}},
			[]string{"PATH", "SSH_AUTH_SOCK"}, []string{"EDITOR"}, nil},
		{"none with set", Policy{Inherit: "none", Set: map[string]string{"CI": "1", "PATH": "/opt/bin"}},
			[]string{"CI", "PATH"}, []string{"HOME", "LANG"}, []string{"CI=1", "PATH=/opt/bin"}},
		{"set replaces", Policy{Set: map[string]string{"EDITOR": "nano"}},
			[]string{"EDITOR"}, nil, []string{"EDITOR=nano"}},
	}
	for _, tc := range cases {
		got := Build(environ, tc.policy)
		ns := names(got)
		for _, n := range tc.want {
			if !slices.Contains(ns, n) {
				t.Errorf("%s: %s missing from %v", tc.name, n, ns)
			}
		}
		for _, n := range tc.wantNot {
			if slices.Contains(ns, n) {
				t.Errorf("%s: %s passed on", tc.name, n)
			}
		}
		for _, kv := range tc.wantVals {
			if !slices.Contains(got, kv) {
				t.Errorf("%s: %s missing from %v", tc.name, kv, got)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(ns)))) != len(ns) {
			t.Errorf("%s: a name appears twice: %v", tc.name, ns)
		}
	}
	// Build is pure: the input is untouched.
	before := slices.Clone(environ)
	Build(environ, Policy{Set: map[string]string{"PATH": "x"}})
	if !slices.Equal(before, environ) {
		t.Error("Build changed its input")
	}
}

func TestCheck(t *testing.T) {
	for _, bad := range []Policy{{Inherit: "some"}, {Exclude: []string{"[A-"}}, {Include: []string{""}}, {Set: map[string]string{"A=B": "x"}}} {
		if Check(bad) == nil {
			t.Errorf("Check(%+v) accepted it", bad)
		}
	}
	if err := Check(Policy{Inherit: "core", Exclude: []string{"AWS_*"}, Include: []string{"GH_TOKEN"}, Set: map[string]string{"CI": "1"}}); err != nil {
		t.Error(err)
	}
}

// TestMain doubles as the program Conceal re-executes in TestConceal.
func TestMain(m *testing.M) {
	if os.Getenv("SHELLENV_TEST_CHILD") == "1" {
		if err := Conceal(); err != nil {
			fmt.Println("conceal:", err)
		}
		environ, _ := os.ReadFile("/proc/self/environ")
		fmt.Printf("pid=%d\nkey=%s\ntoken=%s\nplain=%s\nenviron=%s\n", os.Getpid(),
			os.Getenv("ANTHROPIC_API_KEY"), os.Getenv("GITHUB_TOKEN"), os.Getenv("PLAIN"), strings.ReplaceAll(string(environ), "\x00", " "))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestConceal(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc here")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = []string{"SHELLENV_TEST_CHILD=1", "PATH=/usr/bin:/bin", "ANTHROPIC_API_KEY=sk-ant-HIDDENVALUE", "GITHUB_TOKEN=ghp-HIDDENVALUE", "PLAIN=visible"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		fmt.Sprintf("pid=%d\n", cmd.Process.Pid), // re-executed in place
		"key=sk-ant-HIDDENVALUE\n", "token=ghp-HIDDENVALUE\n", "plain=visible\n", "PLAIN=visible",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("child output lacks %q:\n%s", want, s)
		}
	}
	env := s[strings.Index(s, "environ="):]
	if strings.Contains(env, "HIDDENVALUE") {
		t.Errorf("the process environment still shows a secret:\n%s", env)
	}
}

func TestWithGitGuard(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{"PATH=/bin"}, []string{"PATH=/bin", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit", "GIT_CONFIG_COUNT=1"}},
		{[]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat"},
			[]string{"GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat", "GIT_CONFIG_KEY_1=safe.bareRepository", "GIT_CONFIG_VALUE_1=explicit", "GIT_CONFIG_COUNT=2"}},
		{[]string{"GIT_CONFIG_COUNT=x", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=all"},
			[]string{"GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit", "GIT_CONFIG_COUNT=1"}},
	} {
		if got := WithGitGuard(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("WithGitGuard(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A policy that leaves PATH out (exclude PATH, inherit none) does not
// leave the shell its built-in path, which ends in "." and would run a
// project's own programs under common names.
func TestPathIsNeverLeftToTheShell(t *testing.T) {
	environ := []string{"PATH=/usr/local/go/bin:.::/usr/bin:bin", "HOME=/home/u"}
	for _, p := range []Policy{{Exclude: []string{"PATH"}}, {Inherit: "none"}, {Exclude: []string{"*"}}} {
		var path string
		for _, kv := range Build(environ, p) {
			if v, ok := strings.CutPrefix(kv, "PATH="); ok {
				path = v
			}
		}
		if path != "/usr/local/go/bin:/usr/bin" {
			t.Errorf("%+v: PATH=%q", p, path)
		}
	}
	if got := keptPath(nil); got != defaultPath {
		t.Errorf("without a PATH of its own: %q", got)
	}
}
