package shellclass

import (
	"slices"
	"strings"
)

// Stored is a git command that can print what git keeps of files (their
// committed, staged or stashed copies, or diffs of them), which rules on
// the files in the working tree do not see.
type Stored struct {
	// Command is the git subcommand, such as "git show".
	Command string
	// Paths are the files it is limited to: the paths after "--", as
	// written, relative to where it runs; Blobs are those of rev:path
	// words, relative to the top of the repository. Both are nil when
	// it may print any file.
	Paths, Blobs []string
}

// storedPrinters are the git subcommands that print stored content.
// log and whatchanged print it only with a patch option.
var storedPrinters = map[string]bool{
	"git show": true, "git cat-file": true, "git diff": true, "git diff-tree": true, "git diff-index": true,
	"git diff-files": true, "git grep": true, "git stash": true, "git archive": true, "git bundle": true,
	"git fast-export": true, "git format-patch": true, "git blame": true, "git annotate": true,
	"git range-diff": true, "git difftool": true, "git log": true, "git whatchanged": true, "git show-index": true,
}

// patchLong are the long options that make git log print file
// contents, alone or with a value (--unified=5). Short ones are -c and
// -m alone, -U and -L with a value, and -p and -u also bundled (-pS).
var patchLong = []string{"--patch", "--unified", "--word-diff", "--color-words", "--cc", "--diff-merges", "--binary", "--text", "--ext-diff", "--full-diff"}

// noteStored records a git command that can print stored content.
func noteStored(w *walker, base string, args []arg) {
	key, rest := gitKey(base, args)
	if rest == nil && key == base {
		// The subcommand is only known at run time.
		w.stored = append(w.stored, Stored{Command: base})
		return
	}
	if sub := strings.TrimPrefix(key, "git "); sub != key && !gitCommands[sub] {
		// An alias (from -c or the repository's config) may be any of
		// the printers.
		w.stored = append(w.stored, Stored{Command: key})
		return
	}
	if !storedPrinters[key] {
		return
	}
	if (key == "git log" || key == "git whatchanged") && !anyPatchOption(rest) {
		return
	}
	s := Stored{Command: key}
	whole := true
	for i, a := range rest {
		if a.is("--") {
			whole = false
			for _, p := range rest[i+1:] {
				if !p.lit {
					whole = true // a pathspec known only at run time
					break
				}
				s.Paths = append(s.Paths, p.text)
			}
			break
		}
		if !a.lit {
			continue
		}
		if _, path, ok := strings.Cut(a.text, ":"); ok && !a.isOpt() && (key == "git show" || key == "git cat-file") {
			whole = false
			if strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
				s.Paths = append(s.Paths, path) // git reads these from where it runs
			} else {
				s.Blobs = append(s.Blobs, path)
			}
		}
	}
	if whole || len(s.Paths)+len(s.Blobs) == 0 {
		s.Paths, s.Blobs = nil, nil
	}
	w.stored = append(w.stored, s)
}

func anyPatchOption(args []arg) bool {
	for _, a := range args {
		if !a.lit {
			return true
		}
		if a.is("--") {
			return false
		}
		t := a.text
		switch {
		case t == "-c" || t == "-m":
			return true
		case strings.HasPrefix(t, "--"):
			if slices.ContainsFunc(patchLong, func(o string) bool { return strings.HasPrefix(t, o) }) {
				return true
			}
		case len(t) > 1 && t[0] == '-' && (t[1] == 'U' || strings.ContainsAny(t[1:], "puL")):
			return true
		}
	}
	return false
}
