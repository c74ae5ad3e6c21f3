package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/internal/gitignore"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed grep.md
var grepDoc string

const (
	// grepMaxFileSize skips larger files in directory searches.
	grepMaxFileSize = 20 << 20
	// grepMaxOutput bounds the text Grep returns.
	grepMaxOutput = 50_000
	// keptBufferMax is the largest read buffer a search worker keeps for
	// its next file; a larger one is left to the collector, so that a
	// few big files do not hold memory on every worker for the whole
	// search.
	keptBufferMax = 4 << 20
	// pseudoWalkMaxBytes bounds what a directory search reads of a file
	// of /proc or /sys, which reports no size.
	pseudoWalkMaxBytes = 1 << 20
)

type grepInput struct {
	Pattern    string `json:"pattern" desc:"Regular expression to search for (Go RE2 syntax, like ripgrep's default engine)."`
	Path       string `json:"path,omitempty" desc:"File or directory to search, absolute or relative to the project directory. Defaults to the project directory."`
	Glob       string `json:"glob,omitempty" desc:"Only search files matching this glob, e.g. \"*.go\" or \"**/*.{ts,tsx}\"; several may be separated by spaces; a leading ! excludes."`
	Type       string `json:"type,omitempty" desc:"Only search files of this type, e.g. go, js, ts, py, rust, java, c, cpp, md, json, yaml, sh, html, css."`
	OutputMode string `json:"output_mode,omitempty" enum:"content,files_with_matches,count" desc:"content: matching lines; files_with_matches: file paths only (default); count: matching lines per file."`
	IgnoreCase bool   `json:"-i,omitempty" desc:"Match without regard to letter case."`
	LineNums   *bool  `json:"-n,omitempty" desc:"Show line numbers in content mode (default true)."`
	After      *int   `json:"-A,omitempty" desc:"Lines of context to show after each match (content mode)."`
	Before     *int   `json:"-B,omitempty" desc:"Lines of context to show before each match (content mode)."`
	Context    int    `json:"-C,omitempty" desc:"Lines of context to show before and after each match (content mode)."`
	HeadLimit  int    `json:"head_limit,omitempty" desc:"Show only the first N output lines (content) or entries (other modes)."`
	Multiline  bool   `json:"multiline,omitempty" desc:"Let the pattern span lines: '.' also matches newlines and \\n may appear in the pattern."`
}

type grepTool struct{ tool.Meta }

// NewGrep returns the Grep tool, a parallel regular-expression search over
// files that respects .gitignore.
func NewGrep() tool.Tool {
	return grepTool{tool.NewMeta[grepInput]("Grep", permission.KindRead, grepDoc, true)}
}

func (grepTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[grepInput](input)
	if err != nil {
		return nil, err
	}
	s, err := newSearcher(in)
	if err != nil {
		return nil, err
	}
	filter, err := newFileFilter(in.Glob, in.Type)
	if err != nil {
		return nil, err
	}
	if in.HeadLimit < 0 {
		return nil, fmt.Errorf("head_limit must be 0 (no limit) or more, got %d", in.HeadLimit)
	}
	return &grepCall{root: env.Abs(in.Path), s: s, filter: filter, head: in.HeadLimit, pattern: in.Pattern}, nil
}

// newSearcher compiles the pattern and options of a Grep input.
func newSearcher(in grepInput) (*searcher, error) {
	if in.Pattern == "" {
		return nil, errors.New("pattern is required")
	}
	s := &searcher{multiline: in.Multiline, lineNums: true, maxSize: grepMaxFileSize}
	switch in.OutputMode {
	case "", "files_with_matches":
		s.mode = modeFiles
	case "content":
		s.mode = modeContent
	case "count":
		s.mode = modeCount
	default:
		return nil, fmt.Errorf("output_mode must be content, files_with_matches or count, got %q", in.OutputMode)
	}
	if in.LineNums != nil {
		s.lineNums = *in.LineNums
	}
	if in.Context < 0 || (in.After != nil && *in.After < 0) || (in.Before != nil && *in.Before < 0) {
		return nil, errors.New("context line counts (-A, -B, -C) must not be negative")
	}
	s.before, s.after = in.Context, in.Context
	if in.After != nil {
		s.after = *in.After
	}
	if in.Before != nil {
		s.before = *in.Before
	}
	flags := "m"
	if in.IgnoreCase {
		flags += "i"
	}
	if in.Multiline {
		flags += "s"
	}
	expr := "(?" + flags + ")" + in.Pattern
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("pattern is not a valid regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if !in.Multiline && matchesNewline(parsed) {
		return nil, errors.New(`pattern contains a newline (\n), which cannot match within one line; set multiline to true to search across lines`)
	}
	if s.re, err = regexp.Compile(expr); err != nil {
		return nil, fmt.Errorf("pattern is not a valid regular expression: %v", err)
	}
	s.pre = buildPrefilter(parsed)
	s.lookBehind = looksBehind(parsed)
	if !in.Multiline {
		if s.prog, err = syntax.Compile(parsed.Simplify()); err != nil {
			s.prog = nil // the regexp alone will do
		}
	}
	return s, nil
}

// looksBehind reports whether the pattern has an assertion about the text
// before a position.
func looksBehind(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if looksBehind(sub) {
			return true
		}
	}
	return false
}

// matchesNewline reports whether a literal newline appears in the pattern.
func matchesNewline(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if matchesNewline(sub) {
			return true
		}
	}
	return false
}

type grepCall struct {
	root    string
	s       *searcher
	filter  *fileFilter
	head    int
	pattern string
}

func (c *grepCall) Access() permission.Access {
	return fileAccess(c.root)
}

// grepStats counts files left out of a search.
type grepStats struct {
	large       int    // files over the size limit
	largePseudo int    // files of /proc or /sys over pseudoWalkMaxBytes
	binaryRoot  bool   // the one file searched is binary
	cutAt       int64  // the one file searched was read only this far
	hidden      string // what the permission rules left out, in words
	stream      streamStats
}

// Run searches on a goroutine of its own, so that ponder stops waiting
// once ctx is done even when a read blocks in the kernel.
func (c *grepCall) Run(ctx context.Context) tool.Result {
	return untilDone(ctx, "Grep", func() tool.Result { return c.run(ctx) })
}

func (c *grepCall) run(ctx context.Context) tool.Result {
	info, err := os.Stat(c.root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tool.Errorf("Path does not exist: %s", c.root)
	case err != nil:
		return tool.Errorf("Cannot search %s: %v", c.root, err)
	case !info.IsDir() && !info.Mode().IsRegular():
		return tool.Errorf("%s is not a regular file or directory.", c.root)
	}
	var (
		results *resultSet
		stats   grepStats
	)
	if info.IsDir() {
		results, stats, err = c.searchTree(ctx)
	} else {
		results, stats, err = c.searchOne(ctx)
	}
	var refused *refusedFile
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return tool.Errorf("Grep was interrupted.")
	case errors.As(err, &refused):
		return tool.Errorf("%s.", err)
	default:
		return tool.Errorf("Cannot search %s: %v", c.root, err)
	}
	return c.format(results, stats)
}

// searchOne searches a single named file, whatever its size or name: a
// file too large for a directory search, or one on a pseudo file system
// (whose size says nothing), is searched as it is read, in bounded
// memory and up to a bounded number of bytes.
func (c *grepCall) searchOne(ctx context.Context) (*resultSet, grepStats, error) {
	s := *c.s
	s.maxSize = 0
	var (
		r     fileResult
		ok    bool
		skip  skipReason
		stats grepStats
	)
	f, err := openForReading(c.root)
	if err != nil {
		return nil, stats, err
	}
	defer f.Close()
	if !f.pseudo && f.info.Size() <= grepMaxFileSize {
		r, ok, skip = newGrepWorker(&s).searchFile(c.root)
	}
	if f.pseudo || f.info.Size() > grepMaxFileSize || skip == skippedLarge {
		lr := &limitedReader{r: ctxReader{ctx, f}, n: f.maxBytes()}
		r, ok, skip, stats.stream = newGrepWorker(&s).searchStream(lr, c.root, defaultStream)
		if lr.reached {
			stats.cutAt = lr.n0()
		}
	}
	stats.binaryRoot = skip == skippedBinary
	if err := ctx.Err(); err != nil {
		return nil, stats, err
	}
	set := newResultSet(s.mode)
	if ok {
		set.add(r)
	}
	return set, stats, nil
}

// searchTree walks the tree and searches its files on a pool of workers.
func (c *grepCall) searchTree(ctx context.Context) (*resultSet, grepStats, error) {
	workers := runtime.GOMAXPROCS(0)
	paths := make(chan string, 256)
	found := newResultSet(c.s.mode)
	skipped := make([]grepStats, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newGrepWorker(c.s)
			for p := range paths {
				if ctx.Err() != nil {
					continue // drain
				}
				r, ok, skip := w.searchFile(p)
				switch {
				case ok:
					found.add(r)
				case skip == skippedLarge:
					skipped[i].large++
				case skip == skippedLargePseudo:
					skipped[i].largePseudo++
				}
			}
		}()
	}
	perm := newWalkFilter(ctx, "Grep", c.root)
	m := gitignore.New(c.root)
	err := m.Walk(ctx, "", gitignore.WalkOptions{Workers: workers}, func(e gitignore.Entry) error {
		if e.IsDir() {
			if c.filter.skipDir(e.Rel) || !perm.allows(e) {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type.IsRegular() || !c.filter.keep(e.Rel) || !perm.allows(e) {
			return nil
		}
		select {
		case paths <- e.Path:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(paths)
	wg.Wait()
	var stats grepStats
	for i := range skipped {
		stats.large += skipped[i].large
		stats.largePseudo += skipped[i].largePseudo
	}
	stats.hidden = perm.note()
	return found, stats, err
}
