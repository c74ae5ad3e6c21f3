package shellenv

import (
	"strconv"
	"strings"
)

// GitGuard is the git configuration every command gets: git may only use
// a bare repository that a command names itself (--git-dir, GIT_DIR).
// Without it, any directory that looks like a git directory (HEAD,
// config, objects/, refs/) counts as a repository when a command runs git
// inside it, so a file edit could plant a config whose core.fsmonitor or
// diff program git would run from a plain "git status". Edits of .git/
// ask in accept-edits mode; a git directory under another name would not.
var GitGuard = [][2]string{{"safe.bareRepository", "explicit"}}

// WithGitGuard returns env with GitGuard added through git's
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>
// variables, after any entries env already has. Such entries count as
// command-line configuration, which the repository's own files cannot
// override. A count git would reject is replaced, with its entries.
func WithGitGuard(env []string) []string {
	count := -1
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				n = -1
			}
			count = n
		}
	}
	out := make([]string, 0, len(env)+2*len(GitGuard)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "GIT_CONFIG_COUNT" || count < 0 && (strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")) {
			continue
		}
		out = append(out, kv)
	}
	n := max(count, 0)
	for _, e := range GitGuard {
		out = append(out,
			"GIT_CONFIG_KEY_"+strconv.Itoa(n)+"="+e[0],
			"GIT_CONFIG_VALUE_"+strconv.Itoa(n)+"="+e[1])
		n++
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(n))
}
