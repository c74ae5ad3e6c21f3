package shellclass

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// gitFlags are git's global options without a value that are allowed
// before the subcommand.
var gitFlags = map[string]bool{
	"--no-pager": true, "-P": true, "-p": true, "--paginate": true,
	"--no-optional-locks": true, "--literal-pathspecs": true,
	"--glob-pathspecs": true, "--noglob-pathspecs": true,
	"--icase-pathspecs": true, "--no-replace-objects": true,
	"--no-lazy-fetch": true, "--no-advice": true,
}

// gitInfo are global options that print something and exit.
var gitInfo = map[string]bool{
	"--version": true, "--help": true, "--html-path": true, "--man-path": true,
	"--info-path": true, "--exec-path": true,
}

// gitValueOptions are git's global options that take the next word as
// their value, as the classifier reads them to find the subcommand. The
// git entry's leadingValues, how permission rules read a command, also
// skip a word after --exec-path and --list-cmds; here the word after them
// is taken for the subcommand, so that its options are still scanned.
var gitValueOptions = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--super-prefix": true, "--config-env": true, "--attr-source": true,
}

// gitOutputEscapes are the options of git's diff and log family.
var gitOutputEscapes = escapeSpec{writeLong: []string{"output", "output-directory"}, abbrev: true}

// gitEscapes are, per subcommand, the options through which git writes a
// file or runs a program, whatever else it is given.
var gitEscapes = map[string]escapeSpec{
	"git diff": gitOutputEscapes, "git log": gitOutputEscapes, "git show": gitOutputEscapes,
	"git whatchanged": gitOutputEscapes, "git diff-tree": gitOutputEscapes, "git diff-index": gitOutputEscapes,
	"git diff-files": gitOutputEscapes, "git range-diff": gitOutputEscapes, "git stash": gitOutputEscapes,
	"git reflog": gitOutputEscapes, "git shortlog": gitOutputEscapes, "git blame": gitOutputEscapes,
	"git format-patch": {writeLong: []string{"output", "output-directory"}, writeShort: "o", abbrev: true},
	"git archive":      {writeLong: []string{"output"}, writeShort: "o", runLong: []string{"exec"}, abbrev: true},
	"git grep":         {runLong: []string{"open-files-in-pager"}, runShort: "O", abbrev: true},
	"git fetch":        {runLong: []string{"upload-pack"}, abbrev: true},
	"git pull":         {runLong: []string{"upload-pack"}, abbrev: true},
	"git ls-remote":    {runLong: []string{"upload-pack", "exec"}, runShort: "u", abbrev: true},
	"git clone":        {runLong: []string{"upload-pack", "template", "config"}, runShort: "uc", abbrev: true},
	"git fetch-pack":   {runLong: []string{"upload-pack", "exec"}, abbrev: true},
	"git push":         {runLong: []string{"receive-pack", "exec"}, abbrev: true},
	"git send-pack":    {runLong: []string{"receive-pack", "exec"}, abbrev: true},
}

// gitKey names the subcommand of git and git-* programs (git-push is git
// push) as "git SUB", and returns the arguments after it; it returns
// prog and nil when the subcommand is only known at run time.
func gitKey(prog string, args []arg) (string, []arg) {
	if sub, ok := GitSubcommand(prog); ok {
		return "git " + sub, args
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			return prog, nil
		}
		switch {
		case gitValueOptions[a.text]:
			i++
		case strings.HasPrefix(a.text, "-"):
		default:
			return "git " + a.text, args[i+1:]
		}
	}
	return prog, args
}

// gitCmd checks git: global options, then a read-only subcommand with
// arguments that keep it read-only. Whatever the verdict, it looks for
// the commands git would run: an alias, or the command given to
// subcommands such as rebase --exec.
func gitCmd(w *walker, prog string, args []arg) string {
	reason := ""
	note := func(r string) {
		if reason == "" {
			reason = r
		}
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			w.hidef("%q is given %s before its subcommand, which cannot be checked", prog, a.text)
			return ""
		}
		t := a.text
		switch {
		case t == "-C":
			i++ // the directory
		case gitFlags[t]:
		case gitInfo[t]:
			if t == "--help" && i+1 < len(args) {
				return `"git --help" with a topic opens a manual viewer, which the repository's configuration can choose`
			}
			return reason
		case t == "-c" || strings.HasPrefix(t, "--config-env") || strings.HasPrefix(t, "--exec-path="):
			// Configuration can define aliases and the programs git
			// runs, so the command git runs is not the one written.
			w.hidef("%q %s sets configuration, which can make git run programs", prog, t)
			if t == "-c" || t == "--config-env" {
				i++
			}
		case strings.HasPrefix(t, "-"):
			note(fmt.Sprintf("%q option %s is not checked", prog, t))
			if gitValueOptions[t] {
				i++
			}
		default:
			w.gitRuns(t, args[i+1:])
			if reason != "" {
				return reason
			}
			return gitSubcommand(t, args[i+1:])
		}
	}
	return reason
}

// gitRuns finds the commands a git subcommand runs: an alias (which can
// stand for any command), or the command given to rebase --exec, bisect
// run, submodule foreach, difftool --extcmd and filter-branch's filters.
func (w *walker) gitRuns(sub string, args []arg) {
	langs := []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}
	if !gitCommands[sub] {
		w.hidef("%q is not one of git's commands but an alias or a git-%s program, which can run any command", "git "+sub, sub)
		return
	}
	code := func(names ...string) {
		for k, a := range args {
			for _, n := range names {
				if a.is(n) && k+1 < len(args) {
					w.shellCode(args[k+1], langs, "git "+sub+" "+n)
				} else if v, ok := strings.CutPrefix(a.text, n+"="); ok && a.lit && strings.HasPrefix(n, "--") {
					w.shellCode(litArg(v), langs, "git "+sub+" "+n)
				}
			}
		}
	}
	switch sub {
	case "rebase":
		code("-x", "--exec")
	case "difftool":
		code("-x", "--extcmd")
	case "filter-branch":
		code("--env-filter", "--tree-filter", "--index-filter", "--msg-filter",
			"--commit-filter", "--parent-filter", "--tag-name-filter", "--setup")
	case "bisect":
		if len(args) > 1 && args[0].is("run") {
			w.run(args[1:], nil)
		}
	case "submodule":
		for k, a := range args {
			if a.is("foreach") {
				words := make([]string, 0, len(args)-k-1)
				for _, b := range args[k+1:] {
					if !b.lit {
						w.hidef("%q runs %s, which is only known at run time", "git submodule foreach", b.text)
						return
					}
					if !b.isOpt() || len(words) > 0 {
						words = append(words, b.text)
					}
				}
				w.shellCode(litArg(strings.Join(words, " ")), langs, "git submodule foreach")
			}
		}
	}
}

// GitSubcommand reports whether prog is one of git's own programs
// (git-push, git-upload-pack), and which subcommand it is.
func GitSubcommand(prog string) (string, bool) {
	sub, ok := strings.CutPrefix(prog, "git-")
	if !ok || !gitCommands[sub] {
		return "", false
	}
	return sub, true
}

// gitTool returns what is known of git for one of git's own programs
// (git-push is git push), for the options it shares with the
// subcommand and the stored content it prints.
func gitTool(prog string) (*program, bool) {
	if _, ok := GitSubcommand(prog); !ok {
		return nil, false
	}
	return lookup("git"), true
}

// gitCommands are git's own commands; any other subcommand is an alias or
// a git-* program.
var gitCommands = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`add am annotate apply archive bisect blame branch bugreport bundle
		cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry
		cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects
		credential credential-cache credential-store daemon describe diagnose diff diff-files diff-index
		diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg
		for-each-ref for-each-repo format-patch fsck fsck-objects gc get-tar-commit-id grep gui
		hash-object help hook http-backend http-fetch http-push imap-send index-pack init init-db
		instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge
		merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive
		merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes
		pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push quiltimport
		range-diff read-tree rebase receive-pack reflog remote repack replace request-pull rerere reset
		restore rev-list rev-parse revert rm send-email send-pack shell shortlog show show-branch
		show-index show-ref sparse-checkout stage stash status stripspace submodule switch symbolic-ref
		tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive
		upload-pack var verify-commit verify-pack verify-tag version whatchanged worktree write-tree`) {
		m[c] = true
	}
	return m
}()

// gitPlain are subcommands that only read, with the long options (and
// abbreviations of them) and short option letters that would not.
var gitPlain = map[string]struct {
	long  []string
	short string
}{
	"status": {}, "blame": {}, "annotate": {}, "rev-parse": {}, "rev-list": {},
	"ls-files": {}, "ls-tree": {},
	// --dirty and --broken refresh the index, which writes it even
	// without optional locks.
	"describe":   {long: []string{"dirty", "broken"}},
	"cat-file":   {long: []string{"textconv", "filters"}},
	"merge-base": {}, "name-rev": {}, "for-each-ref": {}, "count-objects": {},
	"check-ignore": {}, "check-attr": {}, "show-ref": {}, "var": {},
	"cherry": {}, "show-branch": {},
	"version": {}, "diff": {}, "log": {}, "show": {}, "whatchanged": {},
	"shortlog": {}, "diff-tree": {}, "diff-index": {}, "diff-files": {},
	"grep":      {long: []string{"open-files-in-pager", "ext-grep"}, short: "O"},
	"ls-remote": {long: []string{"upload-pack", "exec"}, short: "u"},
}

// gitOutput are long options that reading subcommands accept and that
// write a file or run a program: --output, and --show-signature, which
// runs gpg (the program the repository's configuration names).
var gitOutput = []string{"output", "output-directory", "show-signature"}

// gitSubcommand checks one git subcommand and its arguments.
func gitSubcommand(sub string, args []arg) string {
	if bad, ok := gitPlain[sub]; ok {
		if reason := gitScan(sub, args, bad.long, bad.short); reason != "" || sub != "ls-remote" {
			return reason
		}
		return gitRemoteURL(args)
	}
	switch sub {
	case "help":
		for _, a := range args {
			if !a.lit || !a.isOpt() || !(a.is("-a") || a.is("--all") || a.is("-g") || a.is("--guides")) {
				return `"git help" with a topic opens a manual viewer, which the repository's configuration can choose`
			}
		}
		return ""
	case "branch":
		return gitBranch(args)
	case "tag":
		return gitTag(args)
	case "remote":
		return gitRemote(args)
	case "config":
		return gitConfig(args)
	case "reflog":
		if len(args) == 0 || args[0].isOpt() {
			return gitScan(sub, args, []string{"output"}, "")
		}
		if args[0].lit && (args[0].text == "show" || args[0].text == "exists" || args[0].text == "list") {
			return gitScan(sub, args[1:], []string{"output"}, "")
		}
	case "stash":
		if len(args) > 0 && args[0].lit && (args[0].text == "list" || args[0].text == "show") {
			return gitScan(sub, args[1:], []string{"output"}, "")
		}
	case "worktree":
		if len(args) > 0 && args[0].is("list") {
			return gitScan(sub, args[1:], nil, "")
		}
	case "notes":
		if len(args) == 0 || args[0].lit && (args[0].text == "list" || args[0].text == "show") {
			return gitScan(sub, args, nil, "")
		}
	case "submodule":
		if len(args) == 0 || args[0].lit && (args[0].text == "status" || args[0].text == "summary") {
			return gitScan(sub, args, nil, "")
		}
	}
	return fmt.Sprintf("%q is not a read-only git command", "git "+sub)
}

// gitScan checks arguments of a read-only subcommand: a word known only at
// run time must not be able to become an option, and none of the bad long
// options (or abbreviations, which git accepts) or short letters may
// appear. After "--" or "--end-of-options" everything is a path or a
// revision.
func gitScan(sub string, args []arg, badLong []string, badShort string) string {
	for _, a := range args {
		if a.is("--") || a.is("--end-of-options") {
			return ""
		}
		if reason := unsure("git "+sub, a); reason != "" {
			return reason
		}
		if !a.isOpt() {
			continue
		}
		if a.is("--help") {
			return fmt.Sprintf("%q --help opens a manual viewer, which the repository's configuration can choose", "git "+sub)
		}
		if strings.Contains(a.text, "%G") {
			return fmt.Sprintf("%q %s asks for signature details, which runs gpg", "git "+sub, a.text)
		}
		for _, b := range append(slices.Clip(badLong), gitOutput...) {
			if longPrefixOf(a.text, b) {
				return fmt.Sprintf("%q --%s is not read-only", "git "+sub, b)
			}
		}
		if c := shortCluster(a); badShort != "" && strings.ContainsAny(c, badShort) {
			return fmt.Sprintf("%q %s is not read-only", "git "+sub, a.text)
		}
	}
	return ""
}

// gitListing parses the arguments of git branch and git tag. Options must
// be listed; flags are options without a value, values take one (in the
// same word after "=" or in the next), listing are options that switch to
// list mode. It returns the operands and whether list mode is on.
func gitListing(sub string, args []arg, flags, values, listing []string, letters string) ([]arg, bool, string) {
	var operands []arg
	list := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !a.isOpt() {
			if reason := unsure("git "+sub, a); reason != "" {
				return nil, false, reason
			}
			operands = append(operands, a)
			continue
		}
		t := a.text
		if !strings.HasPrefix(t, "--") {
			for _, c := range t[1:] {
				if !strings.ContainsRune(letters, c) {
					return nil, false, fmt.Sprintf("%q %s is not read-only", "git "+sub, t)
				}
				if c == 'l' || c == 'n' {
					list = true
				}
				if c == 'n' {
					break // -n<lines>
				}
			}
			continue
		}
		name, _, hasVal := strings.Cut(t, "=")
		switch {
		case slices.Contains(flags, name) && !hasVal:
		case slices.Contains(values, name):
			if !hasVal && i+1 < len(args) {
				i++
			}
		default:
			return nil, false, fmt.Sprintf("%q %s is not read-only", "git "+sub, t)
		}
		if slices.Contains(listing, name) {
			list = true
		}
	}
	return operands, list, ""
}

var gitListingValues = []string{
	"--contains", "--no-contains", "--merged", "--no-merged", "--points-at",
	"--sort", "--format",
}

// gitBranch allows listing branches; a name outside list mode creates one.
func gitBranch(args []arg) string {
	flags := []string{
		"--all", "--remotes", "--list", "--verbose", "--quiet", "--show-current",
		"--ignore-case", "--no-color", "--no-column", "--no-abbrev", "--omit-empty",
		"--color", "--column", "--abbrev",
	}
	values := append([]string{"--color", "--column", "--abbrev"}, gitListingValues...)
	listing := []string{"--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}
	operands, list, reason := gitListing("branch", args, flags, values, listing, "arlvqi")
	if reason != "" {
		return reason
	}
	if len(operands) > 0 && !list {
		return `"git branch" with a name creates a branch`
	}
	return ""
}

// gitTag allows listing tags; a name outside list mode creates one.
func gitTag(args []arg) string {
	flags := []string{"--list", "--ignore-case", "--no-column", "--omit-empty", "--color", "--column"}
	values := append([]string{"--color", "--column"}, gitListingValues...)
	listing := []string{"--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}
	operands, list, reason := gitListing("tag", args, flags, values, listing, "lni0123456789")
	if reason != "" {
		return reason
	}
	if len(operands) > 0 && !list {
		return `"git tag" with a name creates a tag`
	}
	return ""
}

// gitRemote allows listing remotes and reading their URLs.
func gitRemote(args []arg) string {
	i := 0
	for i < len(args) && (args[i].is("-v") || args[i].is("--verbose")) {
		i++
	}
	if i == len(args) {
		return ""
	}
	if args[i].lit && (args[i].text == "get-url" || args[i].text == "show") {
		return gitScan("remote", args[i+1:], nil, "")
	}
	return fmt.Sprintf("%q changes remotes", "git remote "+args[i].text)
}

// gitConfigRead are git config options for reading; gitConfigValues take a
// value.
var (
	gitConfigRead = []string{
		"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
		"--get-colorbool", "-l", "--list",
	}
	gitConfigFlags = []string{
		"--show-origin", "--show-scope", "--name-only", "-z", "--null",
		"--global", "--system", "--local", "--worktree", "--includes",
		"--no-includes", "--bool", "--int", "--bool-or-int", "--path",
		"--expiry-date", "--fixed-value", "--all", "--regexp", "--no-type",
	}
	gitConfigValues = []string{"--file", "-f", "--blob", "--default", "--type", "--value", "--url"}
)

// gitConfig allows reading configuration: a --get style option, the list
// and get subcommands, or a single key.
func gitConfig(args []arg) string {
	read := false
	var operands []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !a.isOpt() {
			if reason := unsure("git config", a); reason != "" {
				return reason
			}
			operands = append(operands, a)
			continue
		}
		name, _, hasVal := strings.Cut(a.text, "=")
		switch {
		case slices.Contains(gitConfigRead, name):
			read = true
		case slices.Contains(gitConfigFlags, name):
		case slices.Contains(gitConfigValues, name):
			if !hasVal {
				i++
			}
		default:
			return fmt.Sprintf("%q %s changes configuration or is not checked", "git config", a.text)
		}
	}
	if len(operands) > 0 && operands[0].lit {
		switch operands[0].text {
		case "list", "get":
			return ""
		case "set", "unset", "rename-section", "remove-section", "edit":
			return fmt.Sprintf("%q changes configuration", "git config "+operands[0].text)
		}
	}
	if read || len(operands) <= 1 {
		return ""
	}
	return `"git config" with a value changes configuration`
}

// gitRemoteURL allows git ls-remote only with a repository given as an
// http, https or git URL: a remote name stands for a URL from the
// repository's configuration, and other transports run programs (ssh, or
// a command for ext::).
func gitRemoteURL(args []arg) string {
	for _, a := range args {
		if a.isOpt() {
			continue
		}
		if a.is("--") {
			continue
		}
		scheme, _, ok := strings.Cut(a.prefix, "://")
		if ok && a.lit {
			switch strings.ToLower(scheme) {
			case "http", "https", "git":
				return ""
			}
		}
		return fmt.Sprintf("%q is given %s; only http, https and git URLs are read-only", "git ls-remote", a.text)
	}
	return `"git ls-remote" without a URL reaches a remote from the repository's configuration`
}

// gitFetches records the remote of git commands that reach one.
func gitFetches(w *walker, _ string, args []arg) {
	i := 0
	for i < len(args) && args[i].isOpt() {
		switch t := args[i].text; t {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env":
			i++
		}
		i++
	}
	if i >= len(args) || !args[i].lit {
		return
	}
	sub := args[i].text
	switch sub {
	case "ls-remote", "fetch", "pull", "push", "clone", "archive", "remote":
	default:
		return
	}
	rest := args[i+1:]
	if sub == "remote" {
		if len(rest) == 0 || !rest[0].is("update") && !rest[0].is("show") {
			return
		}
		w.fetches = append(w.fetches, Fetch{Program: "git"})
		return
	}
	var operands []arg
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		if a.is("--") {
			operands = append(operands, rest[k+1:]...)
			break
		}
		if a.isOpt() {
			if sub == "archive" && (a.is("--remote") || strings.HasPrefix(a.text, "--remote=")) {
				if v, ok := strings.CutPrefix(a.text, "--remote="); ok {
					w.fetches = append(w.fetches, Fetch{Program: "git", URL: gitURL(litArg(v))})
				} else if k+1 < len(rest) {
					k++
					w.fetches = append(w.fetches, Fetch{Program: "git", URL: gitURL(rest[k])})
				}
			}
			continue
		}
		operands = append(operands, a)
	}
	if sub == "archive" {
		return
	}
	if len(operands) == 0 {
		w.fetches = append(w.fetches, Fetch{Program: "git"}) // the default remote
		return
	}
	w.fetches = append(w.fetches, Fetch{Program: "git", URL: gitURL(operands[0])})
}

// gitURL returns the URL of a git remote operand, or "" for a remote name
// (whose URL is in the repository's configuration) or a word only known at
// run time.
func gitURL(a arg) string {
	if !a.lit {
		return ""
	}
	if strings.Contains(a.text, "://") {
		return a.text
	}
	// The scp-like form user@host:path.
	if host, _, ok := strings.Cut(a.text, ":"); ok && !strings.Contains(host, "/") && host != "" {
		return "ssh://" + host
	}
	return ""
}

// gitPushes are git commands that push: the plumbing git push runs, and
// the program that receives a push (run on a local repository, it changes
// it as a push to it would).
var gitPushes = map[string]bool{"send-pack": true, "receive-pack": true, "http-push": true}

// AsGitCommand rewrites a command that runs one of git's own programs
// (/usr/lib/git-core/git-push) as the git subcommand it is, and names the
// plumbing that pushes "push", so that permission rules about git push
// hold for them. Other commands are returned as they are.
func AsGitCommand(ws []Word) []Word {
	if len(ws) == 0 || !ws[0].Lit {
		return ws
	}
	prog := BaseName(ws[0].Text)
	if sub, ok := GitSubcommand(prog); ok {
		ws = append([]Word{{Text: "git", Lit: true}, {Text: sub, Lit: true}}, ws[1:]...)
	} else if prog != "git" {
		return ws
	}
	out := ws
	for i, w := range ws {
		if i > 0 && w.Lit && gitPushes[w.Text] {
			if &out[0] == &ws[0] {
				out = append([]Word(nil), ws...)
			}
			out[i].Text = "push"
		}
	}
	return out
}

// gitPrograms is git: its read-only subcommands, the commands it runs, the
// remotes it reaches and the stored content it prints.
var gitPrograms = family{
	"git": {leadingValues: []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds", "--attr-source"}, check: gitCmd, fetch: gitFetches, subcommand: gitKey, subEscapes: gitEscapes, stored: noteStored},
}
