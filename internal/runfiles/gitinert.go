package runfiles

import (
	"slices"
	"strings"
)

// inertGitKeys are the settings of a repository's git config that name
// no program and no file git runs or reads as config: what git init,
// git clone, git remote add, git push -u and git config user.email
// write in the ordinary course. A pattern's '*' stands for a remote's,
// branch's or submodule's name.
var inertGitKeys = []string{
	"core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates",
	"core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.autocrlf", "core.eol",
	"extensions.objectformat", "extensions.worktreeconfig", "extensions.refstorage",
	"user.name", "user.email",
	"remote.*.url", "remote.*.pushurl", "remote.*.fetch", "remote.*.push", "remote.*.tagopt",
	"remote.*.prune", "remote.*.mirror", "remote.*.promisor", "remote.*.partialclonefilter",
	"branch.*.remote", "branch.*.merge", "branch.*.rebase", "branch.*.pushremote", "branch.*.description",
	"submodule.*.url", "submodule.*.active",
	"pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "fetch.prune",
	"init.defaultbranch", "gc.auto", "index.version",
}

// GitConfigChangeRuns reports whether the change of a git config file
// from before to after adds, changes or removes a setting outside
// inertGitKeys: one that may name a program git runs (core.hooksPath,
// core.fsmonitor, an alias, a filter, include.path). A value that is not
// on a line of its own after key = value counts as such a change.
func GitConfigChangeRuns(before, after []byte) bool {
	return !slices.Equal(activeGitSettings(before), activeGitSettings(after))
}

func activeGitSettings(data []byte) []string {
	var out []string
	for _, kv := range parseGitConfig(data) {
		if !inertGitKey(kv[0]) {
			out = append(out, kv[0]+"="+kv[1])
		}
	}
	slices.Sort(out)
	return out
}

func inertGitKey(key string) bool {
	for _, pat := range inertGitKeys {
		section, name, wild := strings.Cut(pat, ".*.")
		if !wild {
			if key == pat {
				return true
			}
			continue
		}
		// section.<name>.name, where <name> may itself hold dots.
		rest, ok := strings.CutPrefix(key, section+".")
		if ok && strings.HasSuffix(rest, "."+name) && len(rest) > len(name)+1 {
			return true
		}
	}
	return false
}
