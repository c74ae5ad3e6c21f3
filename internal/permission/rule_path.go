package permission

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/ponder-agent/ponder/internal/gitignore"
)

// pathPattern is the specifier of a Read or Edit rule, compiled against
// the directory it is relative to. The syntax is gitignore's, with four
// ways to say where a pattern starts (the ones Claude Code documents):
//
//	//path   an absolute path:            Read(//etc/shadow)
//	~/path   below the home directory:    Read(~/.ssh/**)
//	/path    below the project root:      Edit(/src/**/*.ts)
//	path     relative to the project root: a pattern with no slash (other
//	         than a trailing one) matches at any depth, such as Read(.env)
//	         or Edit(*.pem); one with a slash, or starting with ./, is
//	         anchored there, such as Edit(docs/**) or Read(./.env).
//
// As in gitignore, '*' and '?' stay within one path element, '**' spans
// directories, a trailing '/' matches directories only, and a pattern that
// matches a directory covers everything inside it. A pattern ending in
// "/**" also matches the directory itself, so that Read(secrets/**) refuses
// listing and searching secrets/ as well as reading what is in it.
type pathPattern struct {
	// base is the absolute, clean directory the glob is relative to: the
	// pattern's leading elements that hold no wildcard.
	base string
	// glob is the rest, as a gitignore pattern; unused when whole.
	glob gitignore.Pattern
	// dirGlob is glob without a trailing "/**", matching the directory
	// itself; set only for such patterns.
	dirGlob *gitignore.Pattern
	// whole says the pattern names base itself (no wildcard at all):
	// base and everything below it match.
	whole bool
	// starStar says the glob is "**" alone: base itself matches too.
	starStar bool
	dirOnly  bool
	// basename says the glob has no slash and matches one path element
	// at any depth.
	basename bool
	// pre and post are literal text the subject (the path element for a
	// basename glob, the relative path otherwise) must start and end
	// with; checked before the glob runs, they turn most paths away at
	// the cost of a string comparison.
	pre, post string
}

// foldCase says whether the file system ignores letter case, so that
// patterns must too. macOS and Windows file systems usually do.
var foldCase = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// compilePath compiles a Read or Edit specifier; root is the project root
// and home the home directory, both absolute. The error says why the
// pattern could never mean what it seems to.
func compilePath(spec, root, home string) (*pathPattern, error) {
	s := filepath.ToSlash(spec)
	if foldCase {
		s = strings.ToLower(s)
		root, home = strings.ToLower(root), strings.ToLower(home)
	}
	if strings.HasPrefix(s, "!") {
		return nil, errors.New("a rule cannot negate a pattern with '!'; use an allow or ask rule for the exception")
	}
	if strings.HasSuffix(s, `\`) && !strings.HasSuffix(s, `\\`) {
		return nil, errors.New("the pattern ends in a lone backslash, which matches nothing")
	}
	if err := checkBrackets(s); err != nil {
		return nil, err
	}
	p := &pathPattern{dirOnly: strings.HasSuffix(s, "/") && strings.Trim(s, "/") != ""}
	var base, rest string
	anchored := true
	switch {
	case strings.HasPrefix(s, "//"):
		base, rest = "/", s[2:]
	case s == "~" || strings.HasPrefix(s, "~/"):
		if home == "" {
			return nil, errors.New("the home directory is unknown, so ~/ cannot be resolved")
		}
		base, rest = home, strings.TrimPrefix(s[1:], "/")
	case strings.HasPrefix(s, "~"):
		return nil, errors.New("~user is not supported; write ~/path for your home directory or //path for an absolute path")
	case strings.HasPrefix(s, "/"):
		base, rest = root, s[1:]
	case s == "." || strings.HasPrefix(s, "./"):
		base, rest = root, strings.TrimPrefix(s[1:], "/")
	default:
		base, rest = root, s
		anchored = strings.Contains(strings.TrimRight(s, "/"), "/")
	}
	rest = strings.TrimRight(rest, "/")
	if !anchored {
		p.base = filepath.ToSlash(filepath.Clean(base))
		return p, p.setGlob(rest)
	}
	abs := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.FromSlash(base), filepath.FromSlash(rest))))
	// Split off the leading elements without wildcards: they are a plain
	// directory, compared as a string before any glob runs.
	elems := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	n := 0
	for n < len(elems) && !strings.ContainsAny(elems[n], `*?[\`) {
		n++
	}
	p.base = "/" + strings.Join(elems[:n], "/")
	if n == len(elems) || abs == "/" {
		p.whole = true
		return p, nil
	}
	return p, p.setGlob("/" + strings.Join(elems[n:], "/"))
}

// setGlob parses the glob part; a leading '/' anchors it at base.
func (p *pathPattern) setGlob(text string) error {
	// "**/name" matches name at any depth below base, which is what a
	// pattern without a slash does, and faster.
	if rest, ok := strings.CutPrefix(text, "/**/"); ok && rest != "" && !strings.Contains(rest, "/") && rest != "**" {
		text = rest
	}
	p.basename = !strings.HasPrefix(text, "/")
	body := strings.TrimPrefix(text, "/")
	if i := strings.IndexAny(body, `*?[\`); i >= 0 {
		p.pre = body[:i]
		if j := strings.LastIndexAny(body, `*?[]\`); j >= 0 && !strings.Contains(body[j+1:], "/") {
			p.post = body[j+1:]
		}
	}
	line := text
	if strings.HasPrefix(line, "#") {
		line = `\` + line // not a comment here
	}
	if p.dirOnly {
		line += "/"
	}
	g, ok := gitignore.ParsePattern(line)
	if !ok {
		return errors.New("the pattern is empty")
	}
	p.glob = g
	p.starStar = strings.TrimPrefix(text, "/") == "**"
	if t, ok := strings.CutSuffix(text, "/**"); ok && strings.Trim(t, "/") != "" {
		if d, ok := gitignore.ParsePattern(t); ok {
			p.dirGlob = &d
		}
	}
	return nil
}

// checkBrackets rejects a '[' that is never closed, which gitignore
// would take as matching nothing.
func checkBrackets(s string) error {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			j := i + 1
			if j < len(s) && (s[j] == '!' || s[j] == '^') {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				j++
			}
			if j >= len(s) {
				return errors.New("a '[' in the pattern is never closed")
			}
			i = j
		}
	}
	return nil
}

// below returns p relative to dir ("" for dir itself) when p is dir or
// inside it. Both are absolute, clean and slash-separated.
func below(dir, p string) (string, bool) {
	if dir == "/" {
		return strings.TrimPrefix(p, "/"), strings.HasPrefix(p, "/")
	}
	if !strings.HasPrefix(p, dir) {
		return "", false
	}
	rest := p[len(dir):]
	if rest == "" {
		return "", true
	}
	if rest[0] != '/' {
		return "", false
	}
	return rest[1:], true
}

// match reports whether the pattern covers path p (absolute and clean).
// isDir tells, when asked, whether p is a directory. leafOnly says that
// every directory above p has been checked already and matched nothing,
// so only p itself needs to be tried (a walk checks each directory before
// it descends).
func (pp *pathPattern) match(p string, isDir func() bool, leafOnly bool) bool {
	p = filepath.ToSlash(p)
	if foldCase {
		p = strings.ToLower(p)
	}
	rel, ok := below(pp.base, p)
	if !ok {
		return false
	}
	if pp.whole {
		if rel == "" && pp.dirOnly {
			return isDir()
		}
		return !leafOnly || rel == ""
	}
	if rel == "" {
		return pp.starStar
	}
	if pp.dirGlob != nil && pp.dirGlob.Match(rel, true) {
		return true
	}
	if !leafOnly {
		for i := 0; i < len(rel); i++ {
			if rel[i] == '/' && pp.globMatch(rel[:i], true) {
				return true
			}
		}
	}
	return pp.globMatch(rel, pp.dirOnly && isDir())
}

// globMatch runs the glob on rel after the cheap literal checks.
func (pp *pathPattern) globMatch(rel string, isDir bool) bool {
	subject := rel
	if pp.basename {
		subject = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	if !strings.HasPrefix(subject, pp.pre) || !strings.HasSuffix(subject, pp.post) {
		return false
	}
	return pp.glob.Match(rel, isDir)
}

// statDir reports whether p is a directory; it is only asked for
// patterns that match directories alone.
func statDir(p string) func() bool {
	return func() bool {
		info, err := os.Stat(p)
		return err == nil && info.IsDir()
	}
}

// compile prepares a rule's specifier for matching: path patterns against
// the root and home directory, URL specifiers parsed.
func (m matcher) compile(r *Rule, src Source, file string) error {
	r.c = &compiled{source: src, file: file, kind: m.ruleKind(r.Tool)}
	if r.Specifier == "" {
		return nil
	}
	switch r.c.kind {
	case KindRead, KindWrite:
		for _, spec := range expandBraces(r.Specifier) {
			p, err := compilePath(spec, m.root, m.home)
			if err != nil {
				return err
			}
			r.c.paths = append(r.c.paths, p)
			// A file reached through its resolved path must meet the
			// rule too, so the base directory is also compared resolved.
			if c := filepath.ToSlash(Canonical(filepath.FromSlash(p.base))); c != p.base {
				if foldCase {
					c = strings.ToLower(c)
				}
				q := *p
				q.base = c
				r.c.paths = append(r.c.paths, &q)
			}
		}
	case KindNetwork:
		u, err := parseURLSpec(r.Specifier)
		if err != nil {
			return err
		}
		r.c.url = u
	}
	return nil
}

// pathMatches reports whether a Read or Edit rule covers path p.
func (m matcher) pathMatches(r Rule, p string, h pathHints) bool {
	if r.c == nil || r.c.paths == nil {
		// A rule that was never compiled matches nothing it could get
		// wrong; engines compile every rule they hold.
		return false
	}
	isDir := h.isDir
	if isDir == nil {
		isDir = statDir(p)
	}
	for _, pp := range r.c.paths {
		if pp.match(p, isDir, h.leafOnly) {
			return true
		}
	}
	return false
}

// expandBraces turns "src/*.{ts,tsx}" into "src/*.ts" and "src/*.tsx":
// gitignore has no braces, but people write them, and a pattern that
// silently matched nothing would be worse. A brace without a comma, or
// escaped, stays as it is.
func expandBraces(s string) []string {
	depth, open := 0, -1
	var commas []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open, commas = i, nil
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 || len(commas) == 0 {
				continue
			}
			var out []string
			start := open + 1
			for _, c := range append(commas, i) {
				out = append(out, expandBraces(s[:open]+s[start:c]+s[i+1:])...)
				start = c + 1
			}
			return out
		}
	}
	return []string{s}
}
