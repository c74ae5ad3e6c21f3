package runfiles

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/smallfile"
)

// Target is a file or directory that git's configuration makes decide
// what runs.
type Target struct {
	Path string
	// Dir says that the files in it count, not the path itself.
	Dir bool
	// Skip names files in a Dir that run nothing and that git's own
	// commands write (info/exclude, info/sparse-checkout).
	Skip []string
	// Pointer says the file is no config but names a directory git
	// reads (commondir, gitdir): any change of it counts, where a config
	// change that runs nothing stands.
	Pointer bool
	Why     string
}

// gitInfoSkip are the files of a git directory's info/ that run nothing.
var gitInfoSkip = []string{"exclude", "sparse-checkout", "refs", "packs"}

// maxConfigBytes bounds what is read of one git config file.
const maxConfigBytes = 1 << 20

// GitTargets returns, for the repository whose working tree is root, the
// files and directories git runs programs from: its config and hooks
// directory (found through a .git file in a linked worktree), the user's
// own config files (when home is given), and the
// directories core.hooksPath and the files include.path and
// includeIf.*.path name, in the repository's config and the user's
// (home's .gitconfig and git/config under the XDG config directory). It
// reads the files itself, runs nothing (asking git would run what its
// config names, the very thing to guard), and follows includes a few
// levels deep. The parser is a small one of its own rather than go-git's
// config package: the sandbox imports this package and takes the standard
// library only, and a handful of keys is all it reads.
func GitTargets(root, home string) []Target {
	gitDir, common := gitDirs(root)
	if gitDir == "" {
		return nil
	}
	out := []Target{
		{Path: filepath.Join(common, "config"), Why: "git runs the programs its config names"},
		{Path: filepath.Join(common, "hooks"), Dir: true, Why: whyGitHooks},
	}
	configs := []string{filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree")}
	out = append(out, gitInternals(gitDir, common)...)
	if home != "" {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		user := []string{filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")}
		configs = append(configs, user...)
		for _, u := range user {
			out = append(out, Target{Path: u, Why: "git runs the programs your own config names, in every repository"})
		}
	}
	seen := map[string]bool{}
	var walk func(file string, depth int)
	walk = func(file string, depth int) {
		if depth > 4 || seen[file] {
			return
		}
		seen[file] = true
		for _, kv := range readGitConfig(file) {
			switch {
			case kv[0] == "core.hookspath":
				p := expandGitPath(kv[1], root, home)
				out = append(out, Target{Path: p, Dir: true, Why: "core.hooksPath in " + file + " makes git run the scripts there as hooks"})
			case kv[0] == "include.path" || (strings.HasPrefix(kv[0], "includeif.") && strings.HasSuffix(kv[0], ".path")):
				p := expandGitPath(kv[1], filepath.Dir(file), home)
				out = append(out, Target{Path: p, Why: "git reads it as config, through " + file})
				walk(p, depth+1)
			}
		}
	}
	for _, c := range configs {
		walk(c, 0)
	}
	return out
}

// gitDirs finds the git directory of the working tree root and its common
// directory (they differ in a linked worktree), or "".
func gitDirs(root string) (gitDir, common string) {
	dotGit := filepath.Join(root, ".git")
	info, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return "", ""
	case info.IsDir():
		gitDir = dotGit
	default:
		data, err := readSmall(dotGit)
		if err != nil {
			return "", ""
		}
		line, _, _ := strings.Cut(string(data), "\n")
		d, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return "", ""
		}
		gitDir = strings.TrimSpace(d)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
	}
	common = gitDir
	if data, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	return gitDir, common
}

func expandGitPath(p, base, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// readSmall reads a regular file of at most maxConfigBytes; the file is
// the repository's, so neither a FIFO nor a link to a device holds ponder.
func readSmall(p string) ([]byte, error) { return smallfile.Read(p, maxConfigBytes) }

// readGitConfig returns the file's settings as lower-case
// "section.subsection.key" names (the subsection keeps its case only in
// git; here it does not matter) and values, in order.
func readGitConfig(file string) [][2]string {
	data, err := readSmall(file)
	if err != nil {
		return nil
	}
	return parseGitConfig(data)
}

// parseGitConfig is readGitConfig of a file's content.
func parseGitConfig(data []byte) [][2]string {
	var out [][2]string
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxConfigBytes)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.Index(line, "]")
			if end < 0 {
				continue
			}
			head := line[1:end]
			name, sub, ok := strings.Cut(head, " ")
			section = strings.ToLower(strings.TrimSpace(name))
			if ok {
				section += "." + strings.ToLower(strings.Trim(strings.TrimSpace(sub), `"`))
			} else if n, s, dotted := strings.Cut(section, "."); dotted {
				section = n + "." + s // the old [section.sub] spelling
			}
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		out = append(out, [2]string{section + "." + strings.ToLower(strings.TrimSpace(key)), gitValue(val)})
	}
	return out
}

// gitValue strips a value's comment and quotes.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case c == '"':
			quoted = !quoted
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// gitInternals are the other files of the git directory that decide what
// git runs, watched whether or not they exist: commondir (which moves
// the config and hooks git reads elsewhere), config.worktree, info/
// (info/attributes picks filter programs), and in each submodule's and
// linked worktree's git directory that exists now its config, hooks,
// commondir and gitdir. A submodule or worktree git directory made during
// a call is left alone: git submodule update and git worktree add make
// them in the ordinary course.
func gitInternals(gitDir, common string) []Target {
	const whyConfig = "git runs the programs its config names"
	out := []Target{
		{Path: filepath.Join(gitDir, "commondir"), Pointer: true, Why: "it moves the config and hooks git reads to another directory"},
		{Path: filepath.Join(gitDir, "config.worktree"), Why: whyConfig},
		{Path: filepath.Join(common, "info"), Dir: true, Skip: gitInfoSkip, Why: "info/attributes picks the filter and diff programs git runs"},
	}
	if gitDir != common {
		out = append(out, Target{Path: filepath.Join(common, "config.worktree"), Why: whyConfig})
	}
	for _, m := range gitSubdirs(filepath.Join(common, "modules"), 3) {
		out = append(out,
			Target{Path: filepath.Join(m, "config"), Why: "git runs the programs a submodule's config names when you work in it"},
			Target{Path: filepath.Join(m, "config.worktree"), Why: whyConfig},
			Target{Path: filepath.Join(m, "commondir"), Pointer: true, Why: "it moves the config and hooks git reads to another directory"},
			Target{Path: filepath.Join(m, "hooks"), Dir: true, Why: whyGitHooks},
			Target{Path: filepath.Join(m, "info"), Dir: true, Skip: gitInfoSkip, Why: "info/attributes picks the filter and diff programs git runs"},
		)
	}
	for _, w := range gitSubdirs(filepath.Join(common, "worktrees"), 1) {
		for _, name := range []string{"config", "config.worktree", "commondir", "gitdir"} {
			out = append(out, Target{Path: filepath.Join(w, name), Pointer: name == "commondir" || name == "gitdir",
				Why: "git reads it for the linked worktree, and it decides which config and hooks run there"})
		}
	}
	return out
}

// gitSubdirs lists the git directories below dir (.git/modules or
// .git/worktrees): each entry that is a directory, and for modules,
// nested submodules' (name/modules/name) up to depth levels.
func gitSubdirs(dir string, depth int) []string {
	if depth <= 0 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || len(out) >= 200 {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(filepath.Join(p, "HEAD")); err != nil {
			// A submodule named a/b keeps its git directory at
			// modules/a/b: look one level down.
			out = append(out, gitSubdirs(p, depth-1)...)
			continue
		}
		out = append(out, p)
		out = append(out, gitSubdirs(filepath.Join(p, "modules"), depth-1)...)
	}
	return out
}
