package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Accept-edits mode lets edits inside the project through without asking,
// except edits of files that decide what runs: a change there turns a
// later command the user allowed, or one judged read-only, or simply
// opening the folder, into running whatever the edit says. Those still
// ask. Plan mode refuses them like any other file; bypass mode allows
// them, as the user chose.
//
// Names are compared without regard to case (a case-insensitive file
// system opens .GIT/config as .git/config) at any depth, because ponder,
// git and editors all treat a subdirectory as a project of its own when
// started there. Both the path as given and its resolved form are checked,
// so neither a symlink nor ".." reaches one of them unasked.
type protectedName struct {
	name string // a path element, or two joined by '/'
	// tree says that everything below the name is covered too.
	tree bool
	// prefix says that the name is a prefix ending in '.': .env covers
	// .env.local.
	prefix bool
	// suffix says that the name is an ending: .code-workspace covers
	// app.code-workspace.
	suffix bool
	why    string
}

var protectedNames = []protectedName{
	{name: ".git", tree: true, why: "git runs the programs its config and hooks name, even for read-only commands such as git status"},
	{name: ".ponder", tree: true, why: "ponder's own settings, agents and rules for this project"},
	{name: ".claude", tree: true, why: "coding-agent settings, hooks and commands"},
	{name: ".mcp.json", why: "it names MCP servers, which are programs an agent starts"},
	{name: "AGENTS.md", why: "ponder gives it to the model as instructions at every start"},
	{name: "CLAUDE.md", why: "ponder gives it to the model as instructions at every start"},
	{name: ".vscode", tree: true, why: "the editor runs tasks and extensions it configures, some when the folder opens"},
	{name: ".idea", tree: true, why: "the IDE runs the run configurations and startup tasks it holds"},
	{name: ".devcontainer", tree: true, why: "editors build and start the container it describes, with its commands"},
	{name: ".envrc", why: "direnv runs it when a shell enters the directory"},
	{name: ".env", prefix: true, why: "tools such as pipenv and docker compose load it into the environment of the commands they run, and it usually holds secrets"},
	{name: "makefile", why: "make runs its recipes, so an allowed make command would run whatever it says"},
	{name: "gnumakefile", why: "make runs its recipes, so an allowed make command would run whatever it says"},
	{name: ".gitattributes", why: "it picks the filter and diff programs git runs on files"},
	{name: ".gitmodules", why: "it tells git where to fetch code from and how to update it"},
	{name: ".npmrc", why: "npm reads the shell, node options and registry every npm command uses from it"},
	{name: ".yarnrc", why: "yarn reads the program it runs as yarn itself from it"},
	{name: ".yarnrc.yml", why: "yarn reads the program it runs as yarn itself from it"},
	{name: ".cargo/config", why: "cargo runs the runners, wrappers and aliases it names"},
	{name: ".cargo/config.toml", why: "cargo runs the runners, wrappers and aliases it names"},
	{name: ".github/workflows", tree: true, why: "CI runs these workflows with the repository's secrets"},
	{name: ".gitlab-ci.yml", why: "CI runs this pipeline with the repository's secrets"},
	{name: ".circleci", tree: true, why: "CI runs this pipeline with the repository's secrets"},
	{name: ".pre-commit-config.yaml", why: "pre-commit runs the hooks it lists on every commit"},
	{name: ".husky", tree: true, why: "husky runs these scripts as git hooks"},
	{name: ".githooks", tree: true, why: "the conventional hooks directory that core.hooksPath points git at"},
	{name: "lefthook.yml", why: "lefthook runs the commands it lists as git hooks"},
	{name: ".lefthook.yml", why: "lefthook runs the commands it lists as git hooks"},
	{name: ".mise.toml", why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: "mise.toml", why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: ".bashrc", why: "a shell runs it at start"},
	{name: ".bash_profile", why: "a shell runs it at start"},
	{name: ".bash_login", why: "a shell runs it at start"},
	{name: ".bash_logout", why: "a shell runs it at exit"},
	{name: ".profile", why: "a shell runs it at start"},
	{name: ".zshrc", why: "a shell runs it at start"},
	{name: ".zshenv", why: "every zsh runs it at start"},
	{name: ".zprofile", why: "a shell runs it at start"},
	{name: ".zlogin", why: "a shell runs it at start"},
	{name: ".gitconfig", why: "git runs the programs it names"},
	{name: ".config/git", tree: true, why: "git reads its user configuration there, which names programs it runs"},
	{name: ".bash_aliases", why: "the usual .bashrc sources it at start"},
	{name: ".zlogout", why: "a shell runs it at exit"},
	{name: ".kshrc", why: "a shell runs it at start"},
	{name: ".config/fish", tree: true, why: "fish runs its configuration at start"},
	{name: ".ssh/config", why: "ssh runs the proxy and local commands it names"},
	{name: ".zed", tree: true, why: "the editor runs the tasks it configures"},
	{name: ".nvim.lua", why: "neovim runs it when it opens the folder"},
	{name: ".exrc", why: "vi-like editors run it when they open the folder"},
	{name: ".github/actions", tree: true, why: "CI runs these actions with the repository's secrets"},
	{name: ".gitlab", tree: true, why: "CI includes pipelines from it with the repository's secrets"},
	{name: ".travis.yml", why: "CI runs this pipeline with the repository's secrets"},
	{name: "jenkinsfile", why: "CI runs this pipeline with the repository's secrets"},
	{name: "azure-pipelines.yml", why: "CI runs this pipeline with the repository's secrets"},
	{name: ".buildkite", tree: true, why: "CI runs this pipeline with the repository's secrets"},
	{name: "bitbucket-pipelines.yml", why: "CI runs this pipeline with the repository's secrets"},
	{name: "mise.local.toml", why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: ".mise.local.toml", why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: ".mise", tree: true, why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: ".config/mise", tree: true, why: "mise runs its hooks and tasks and sets the environment when a shell enters the directory"},
	{name: ".code-workspace", suffix: true, why: "the editor runs the tasks a workspace file holds when it opens"},
	{name: ".tool-versions", why: "version managers pick the programs every command of the project runs from it"},
	{name: ".yarn/releases", tree: true, why: "yarn runs the release its settings name as yarn itself"},
	{name: ".pnpmfile.cjs", why: "pnpm runs it on every install"},
	{name: "rust-toolchain.toml", why: "cargo and rustc run the toolchain it names"},
	{name: "rust-toolchain", why: "cargo and rustc run the toolchain it names"},
	{name: ".bazelrc", why: "bazel runs the programs and options it names"},
	{name: "gradle/wrapper", tree: true, why: "the gradle wrapper downloads and runs the distribution it names"},
}

// configuresExecution returns why accept-edits mode must ask before
// writing one of paths (canon are their resolved forms), or "".
func (e *Engine) configuresExecution(paths, canon []string) string {
	for i, p := range paths {
		for _, pair := range [][2]string{{e.match.root, p}, {e.canonRoot, canon[i]}} {
			rel, err := filepath.Rel(pair[0], pair[1])
			if err != nil {
				continue
			}
			if name, why := protectedRel(filepath.ToSlash(rel)); why != "" {
				return fmt.Sprintf("%s is a file that decides what runs (%s: %s), so accept-edits mode still asks before changing it.", p, name, why)
			}
		}
		if n := hardLinks(canon[i]); n > 1 {
			return fmt.Sprintf("%s has %d hard links, so writing it would change another file too; accept-edits mode asks first.", p, n)
		}
	}
	return ""
}

// protectedRel checks a project-relative, slash-separated path against the
// protected names; it returns the name that matched and why.
func protectedRel(rel string) (string, string) {
	elems := strings.Split(strings.ToLower(rel), "/")
	for i, el := range elems {
		last := i == len(elems)-1
		for _, pn := range protectedNames {
			name := strings.ToLower(pn.name)
			first, second, pair := strings.Cut(name, "/")
			switch {
			case pair:
				if el != first || i+1 >= len(elems) || elems[i+1] != second {
					continue
				}
				if !pn.tree && i+2 != len(elems) {
					continue
				}
			case pn.prefix:
				if el != name && !strings.HasPrefix(el, name+".") {
					continue
				}
			case pn.suffix:
				if !strings.HasSuffix(el, name) {
					continue
				}
			case el != name:
				continue
			}
			if pn.tree || pair || last {
				return pn.name, pn.why
			}
		}
	}
	return "", ""
}

// hardLinks returns the number of links of an existing regular file, or 0.
func hardLinks(p string) uint64 {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return 0
	}
	return linkCount(info)
}
