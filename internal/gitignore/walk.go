package gitignore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Entry is a file or directory found by Walk or ReadDir.
type Entry struct {
	// Path is the absolute path.
	Path string
	// Rel is the path relative to the matcher's root, slash-separated.
	Rel string
	// Type holds the type bits of the entry as the directory listing
	// gave them; symbolic links are reported as links, not followed.
	Type fs.FileMode
}

// IsDir reports whether the entry is a directory.
func (e Entry) IsDir() bool { return e.Type.IsDir() }

// Name returns the last element of the path.
func (e Entry) Name() string { return filepath.Base(e.Path) }

// WalkFunc is called by Walk for each entry that is not ignored. Walk may
// call it from several goroutines at once. Returning fs.SkipDir for a
// directory leaves its contents out (for a file, the rest of its
// directory); fs.SkipAll ends the walk without error; any other error ends
// the walk and Walk returns it.
type WalkFunc func(Entry) error

// WalkOptions tunes Walk.
type WalkOptions struct {
	// Workers bounds how many directories are read at the same time;
	// zero means GOMAXPROCS.
	Workers int
	// All reports ignored entries too; only .git stays out.
	All bool
}

// Walk visits everything below start, a slash-separated path relative to
// the matcher's root ("" for the root itself), leaving out ignored entries
// and .git. Directories are read in parallel, so the order of calls is not
// defined. start itself is not reported when it is a directory; when it is
// a file, Walk reports just that file, ignored or not. Symbolic links are
// reported but never followed, except when start is one. Directories that
// cannot be read are skipped silently. Walk stops early when ctx is done
// and returns ctx's error.
func (m *Matcher) Walk(ctx context.Context, start string, opts WalkOptions, fn WalkFunc) error {
	start = strings.Trim(filepath.ToSlash(start), "/")
	abs := m.abs(start)
	info, err := os.Stat(abs)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		err := fn(Entry{Path: abs, Rel: start, Type: info.Mode().Type()})
		if errors.Is(err, fs.SkipAll) || errors.Is(err, fs.SkipDir) {
			return nil
		}
		return err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	w := &walker{m: m, ctx: ctx, fn: fn, sem: make(chan struct{}, workers), all: opts.All}
	parent := m.base
	if opts.All {
		parent = nil
	} else if start != "" {
		dir := ""
		if i := strings.LastIndexByte(start, '/'); i >= 0 {
			dir = start[:i]
		}
		parent = m.frameFor(dir)
	}
	w.dir(abs, parent)
	w.wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if p := w.err.Load(); p != nil && !errors.Is(*p, fs.SkipAll) {
		return *p
	}
	return nil
}

type walker struct {
	m    *Matcher
	ctx  context.Context
	fn   WalkFunc
	sem  chan struct{}
	wg   sync.WaitGroup
	err  atomic.Pointer[error]
	done atomic.Bool
	all  bool // report ignored entries too
}

func (w *walker) stop(err error) {
	w.err.CompareAndSwap(nil, &err)
	w.done.Store(true)
}

// spawn reads a subdirectory on a new goroutine when a worker slot is
// free, and on the current one otherwise.
func (w *walker) spawn(abs string, f *frame) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.dir(abs, f)
			<-w.sem
		}()
	default:
		w.dir(abs, f)
	}
}

func (w *walker) dir(abs string, f *frame) {
	if w.done.Load() {
		return
	}
	if w.ctx.Err() != nil {
		w.done.Store(true)
		return
	}
	ents, err := readDirUnsorted(abs)
	if err != nil && len(ents) == 0 {
		return
	}
	if !w.all {
		f = w.m.pushDir(f, abs, ents)
	}
	for _, e := range ents {
		ent, ok := w.m.entry(abs, e, f)
		if !ok {
			continue
		}
		err := w.fn(ent)
		if err != nil {
			if errors.Is(err, fs.SkipDir) {
				if ent.IsDir() {
					continue
				}
				return
			}
			w.stop(err)
			return
		}
		if ent.IsDir() {
			w.spawn(ent.Path, f)
		}
		if w.done.Load() {
			return
		}
	}
}

func readDirUnsorted(abs string) ([]fs.DirEntry, error) {
	d, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// pushDir adds the .gitignore of directory abs, when its listing has one,
// to the rules f.
func (m *Matcher) pushDir(f *frame, abs string, ents []fs.DirEntry) *frame {
	for _, e := range ents {
		if e.Name() == ".gitignore" && !e.IsDir() {
			rel := ""
			if len(abs) > len(m.top) {
				rel = filepath.ToSlash(abs[m.topOff:])
			}
			return f.push(rel, loadList(filepath.Join(abs, ".gitignore")))
		}
	}
	return f
}

// entry builds the Entry for e inside directory abs, or reports false
// when the rules f ignore it.
func (m *Matcher) entry(abs string, e fs.DirEntry, f *frame) (Entry, bool) {
	name := e.Name()
	if name == ".git" {
		return Entry{}, false
	}
	p := abs + string(filepath.Separator) + name
	if strings.HasSuffix(abs, string(filepath.Separator)) {
		p = abs + name
	}
	typ := e.Type()
	if f != nil && f.ignored(filepath.ToSlash(p[m.topOff:]), typ.IsDir()) {
		return Entry{}, false
	}
	return Entry{Path: p, Rel: filepath.ToSlash(p[m.rootOff:]), Type: typ}, true
}

// ReadDir lists directory rel (slash-separated, relative to the root)
// sorted by name, leaving out ignored entries and .git. It does not check
// whether rel itself is ignored.
func (m *Matcher) ReadDir(rel string) ([]Entry, error) {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	abs := m.abs(rel)
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	f := m.frameFor(rel)
	out := make([]Entry, 0, len(ents))
	for _, e := range ents {
		if ent, ok := m.entry(abs, e, f); ok {
			out = append(out, ent)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Rel, b.Rel) })
	return out, nil
}
