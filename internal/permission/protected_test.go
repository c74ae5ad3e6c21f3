package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAcceptEditsAsksForFilesThatDecideWhatRuns(t *testing.T) {
	fx := newFixture(t)
	root := fx.root
	os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644)
	os.WriteFile(filepath.Join(root, "plain.go"), []byte("package x\n"), 0o644)
	os.Symlink(filepath.Join(root, ".git", "config"), filepath.Join(root, "innocent.txt"))
	os.Symlink(filepath.Join(root, ".git"), filepath.Join(root, "src", "g"))
	os.Link(filepath.Join(root, "plain.go"), filepath.Join(root, "twin.go"))
	e, _ := NewEngine(Rules{}, root, fx.home)
	acc := Context{Mode: ModeAcceptEdits}

	asks := []string{
		".git/config", ".git/hooks/pre-commit", ".git/info/attributes", ".git", "sub/module/.git/config",
		".GIT/CONFIG", ".Git/hooks/post-checkout",
		".ponder/settings.json", ".ponder/settings.local.json", ".ponder/agents/x.md",
		".claude/settings.json", ".mcp.json", "pkg/.mcp.json", "AGENTS.md", "CLAUDE.md",
		".vscode/tasks.json", ".idea/workspace.xml", ".devcontainer/devcontainer.json",
		".envrc", ".env", ".env.local", "api/.env.production",
		"Makefile", "makefile", "GNUmakefile", "sub/Makefile",
		".gitattributes", ".gitmodules", ".npmrc", ".yarnrc", ".yarnrc.yml",
		".cargo/config", ".cargo/config.toml", ".github/workflows/ci.yml",
		".gitlab-ci.yml", ".circleci/config.yml", ".pre-commit-config.yaml", ".husky/pre-commit",
		"lefthook.yml", ".mise.toml", ".bashrc", ".zshrc", ".profile", ".gitconfig",
		".config/git/config", ".bash_aliases", ".zlogout", ".ssh/config", ".zed/tasks.json", ".nvim.lua",
		".github/actions/setup/action.yml", ".gitlab/ci/build.yml", "Jenkinsfile", ".travis.yml",
		"mise.local.toml", ".tool-versions", ".yarn/releases/yarn-4.cjs", "rust-toolchain.toml",
		"gradle/wrapper/gradle-wrapper.properties", "app.code-workspace", ".mise/config.toml", ".config/mise/config.toml",
		// through a symlink, "..", and a hard link
		"innocent.txt", "src/g/config", "src/../.git/config", "twin.go",
	}
	for _, rel := range asks {
		p := filepath.Join(root, rel)
		if strings.HasPrefix(rel, "src/../") {
			p = root + "/" + rel // keep the ".." for Decide to see
		}
		d := e.Decide(acc, Access{Tool: "Write", Kind: KindWrite, Paths: []string{p}})
		if d.Behavior != Ask {
			t.Errorf("acceptEdits write %s = %s (%s), want ask", rel, d.Behavior, d.Reason)
		}
	}
	for _, rel := range []string{"src/main.go", "docs/makefile.md", "env/x", ".gitignore", "src/.gitignore", ".editorconfig", "package.json", "cargo/config", "docs/venv.md", "bin/run"} {
		d := e.Decide(acc, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{filepath.Join(root, rel)}})
		if d.Behavior != Allow {
			t.Errorf("acceptEdits edit %s = %s (%s), want allow", rel, d.Behavior, d.Reason)
		}
	}
	// A hidden path asks whatever its name: tools keep their
	// configuration there.
	for _, rel := range []string{".github/CODEOWNERS", ".environment", ".someagent/config.json", "src/.tool/x", ".gitignore/x", ".prettierrc", ".eslintrc.js", "build/.cache/x"} {
		d := e.Decide(acc, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{filepath.Join(root, rel)}})
		if d.Behavior != Ask || !strings.Contains(d.Reason, "hidden path") {
			t.Errorf("acceptEdits edit %s = %s (%s), want ask for a hidden path", rel, d.Behavior, d.Reason)
		}
	}
	// Plan mode refuses them; bypass lets them through.
	p := filepath.Join(root, ".git", "config")
	if d := e.Decide(Context{Mode: ModePlan, PlanFile: fx.plan}, Access{Tool: "Write", Kind: KindWrite, Paths: []string{p}}); d.Behavior != Deny {
		t.Errorf("plan mode: %s", d.Behavior)
	}
	if d := e.Decide(Context{Mode: ModeBypass}, Access{Tool: "Write", Kind: KindWrite, Paths: []string{p}}); d.Behavior != Allow {
		t.Errorf("bypass: %s", d.Behavior)
	}
	// The reason says why.
	d := e.Decide(acc, Access{Tool: "Write", Kind: KindWrite, Paths: []string{p}})
	if !strings.Contains(d.Reason, "git runs") {
		t.Errorf("reason %q", d.Reason)
	}
}

// "Yes, and don't ask again" to a protected file allows that file only.
func TestSuggestForAProtectedFileIsNarrow(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	acc := Context{Mode: ModeAcceptEdits}
	hook := Access{Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(fx.root, ".git", "hooks", "pre-commit")}}
	rule := e.Decide(acc, hook).Suggest
	if rule != "Edit(/.git/hooks/pre-commit)" {
		t.Fatalf("Suggest = %q", rule)
	}
	if err := e.AddAllow(rule); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(acc, hook); d.Behavior != Allow {
		t.Fatalf("after the rule: %s", d.Behavior)
	}
	other := Access{Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(fx.root, ".git", "config")}}
	if d := e.Decide(acc, other); d.Behavior != Ask {
		t.Fatalf("the rule reached .git/config: %s", d.Behavior)
	}
	// Outside the project the suggestion is absolute, with //.
	out := e.Decide(acc, Access{Tool: "Write", Kind: KindWrite, Paths: []string{"/opt/data/x.txt"}}).Suggest
	if out != "Edit(//opt/data/**)" {
		t.Fatalf("outside: %q", out)
	}
}

func TestProcessSecretsAreNeverReadable(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc here")
	}
	e, _ := NewEngine(Rules{Allow: []string{"Read", "Edit"}}, t.TempDir(), "/h")
	pid := os.Getpid()
	link := filepath.Join(t.TempDir(), "env")
	os.Symlink("/proc/self/environ", link)
	paths := []string{
		"/proc/self/environ", "/proc/self/mem", "/proc/self/cmdline", "/proc/self",
		"/proc/thread-self/environ", fmt.Sprintf("/proc/%d/environ", pid),
		fmt.Sprintf("/proc/%d/task/%d/environ", pid, pid), fmt.Sprintf("/proc/%d", pid),
		fmt.Sprintf("/proc/%d/../%d/environ", pid, pid), fmt.Sprintf("/proc/%d/environ", os.Getppid()),
		"/proc/1/environ", "/proc/1/task/1/mem", link,
	}
	for _, p := range paths {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			for _, kind := range []Kind{KindRead, KindWrite} {
				d := e.Decide(Context{Mode: mode}, Access{Tool: "Read", Kind: kind, Paths: []string{p}})
				if d.Behavior != Deny {
					t.Errorf("%s %s in %s = %s", kind, p, mode, d.Behavior)
				}
			}
		}
	}
	for _, p := range []string{"/proc/cpuinfo", "/proc/1/status", "/proc/meminfo"} {
		if d := e.Decide(Context{Mode: ModeDefault}, Access{Tool: "Read", Kind: KindRead, Paths: []string{p}}); d.Behavior != Allow {
			t.Errorf("%s = %s", p, d.Behavior)
		}
	}
}

// Every file named as deciding what runs is in the table itself, not
// only caught by the hidden-path rule, so that the guard, the sandbox and
// ponder doctor know it too; and accept-edits asks before writing it, at
// the root and below.
func TestAcceptEditsAsksForEveryRunFile(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	acc := Context{Mode: ModeAcceptEdits}
	names := []string{
		".devcontainer.json", ".nvimrc", ".vimrc", ".python-version", ".nvmrc", ".node-version", ".ruby-version",
		"gradlew", "mvnw", ".mvn/wrapper/maven-wrapper.properties", "mise/config.toml", "mise.staging.toml", ".mise.dev.toml",
		"lefthook.yml", ".lefthook.yml", "lefthook-local.yml", ".lefthook-local.yml", "lefthook.yaml", "lefthook.json",
		"lefthook.toml", ".lefthook-local.toml", ".forgejo/workflows/ci.yml", ".gitea/workflows/ci.yaml", ".woodpecker.yml",
		".drone.yml", "appveyor.yml", ".hg/hgrc", "justfile", "Justfile", "Taskfile.yml", "Taskfile.yaml", "Rakefile", "BSDmakefile",
		".husky/_/pre-commit", ".husky/pre-commit", ".vscode/settings.json", ".ponder/agents/x.md", ".claude/skills/x/SKILL.md",
		"GNUmakefile", "rules.mk", ".envrc", ".tool-versions", "conftest.py", "tests/conftest.py", "evil.pth",
		"lib/python3.12/site-packages/evil.pth", "sitecustomize.py", ".npmrc", ".yarnrc.yml", "bunfig.toml", ".pnpmfile.cjs",
		".cargo/config.toml", ".gitattributes", ".gitmodules", ".pre-commit-config.yaml", ".idea/runConfigurations/x.xml",
		".bazelrc", ".bazelversion", "tools/bazel", ".venv/bin/activate", "venv/bin/python", "env/bin/activate", "pyvenv.cfg",
		"node_modules/.bin/jest", ".direnv/python/bin/activate", "flake.nix", ".gitpod.yml", ".yarn/plugins/p.cjs",
		"Gruntfile.js", "gulpfile.mjs", "noxfile.py", "tox.ini", "Procfile", ".dir-locals.el", "app.sublime-project",
		".config/autostart/x.desktop", "Library/LaunchAgents/x.plist", ".codex/config.toml", ".cursor/rules/x.mdc",
		".config/nvim/init.lua", "Library/Application Support/Code/User/settings.json", ".local/bin/git",
		"Vagrantfile", "compose.yaml", "docker-compose.override.yml", "node_modules/jest/bin/jest.js",
		"env/lib/python3.12/site-packages/requests/__init__.py", ".vim/plugin/x.vim",
	}
	for _, n := range names {
		for _, rel := range []string{n, "sub/dir/" + n} {
			d := e.Decide(acc, Access{Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(fx.root, rel)}})
			if d.Behavior != Ask || !strings.Contains(d.Reason, "decides what runs") {
				t.Errorf("acceptEdits write %s = %s (%s), want ask from the table", rel, d.Behavior, d.Reason)
			}
		}
	}
}
