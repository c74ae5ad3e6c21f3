// Package runguard keeps the files that decide what ponder runs next
// (its settings, which hold hooks, MCP servers and permission rules,
// trust answers, agents, commands and skills, git's config and hooks,
// editor settings) as they were across a tool call the user did not
// approve one by one.
//
// The permission engine asks before a call whose words show it writes
// one of these files; but a program can write a file its words do not
// name (tar x, git apply, cp -t with a glob, a script, npm test after an
// edit of package.json). Whatever the spelling, the guard compares the
// files before and after such a call and puts back what changed, so a
// rule that allows a command never becomes the way a model plants a hook
// for the next session.
//
// The guard watches directories, not names: in a watched tree, any file
// a call creates is removed, whatever it is called, and any it changes or
// removes is put back. What it costs per call is a walk of the trees and
// one lstat per file; contents are read again only for files whose size,
// times or identity changed (see BenchmarkGuardedCall).
package runguard

import (
	"sync"
)

// maxBytes bounds what the guard keeps of a file; a larger one is only
// noticed, not put back (no settings file ponder reads is that large).
const maxBytes = 1 << 20

// maxKept bounds the contents the guard keeps in all; past it, a changed
// file is reported but not put back.
const maxKept = 32 << 20

// maxTreeEntries bounds the entries of one tree the guard walks; a tree
// larger than that when a call starts is compared by the files it knew
// of only, and its new files are not removed.
const maxTreeEntries = 10000

// maxDepth bounds how deep the guard walks a tree.
const maxDepth = 12

// Tree is a directory whose files are all watched, at any depth up to
// Depth (0 means no bound but the guard's own).
type Tree struct {
	Path string
	// Skip names entries directly below Path that are left alone: the
	// records ponder itself appends to while a call runs.
	Skip []string
	// Depth is how many levels are walked; 1 means the entries of Path
	// only.
	Depth int
	// Match, when set, picks the entries directly below Path that are
	// watched (a name pattern of the project root, such as lefthook.*);
	// the others are left alone, neither compared nor walked.
	Match func(name string) bool
}

// Guard watches a fixed list of files and a few trees. One guard serves
// every agent of a session, so that it knows when a call the user
// approved runs beside a guarded one.
type Guard struct {
	set Set
	// source, when set, adds to set what is to be watched at the start
	// of each call: what git's config names may change between calls.
	source func() Set

	mu       sync.Mutex
	approved int    // calls the user approved that are running now
	epoch    uint64 // counts the starts and ends of those calls

	cacheMu sync.Mutex
	cache   map[string]state // the files as last read, by path
	kept    int              // bytes the cache holds
}

// Approved notes that a call the user approved is running, until done
// is called: what it changes is the user's choice, and a guarded call
// running meanwhile cannot tell its changes from that one's, so it puts
// nothing back.
func (g *Guard) Approved() (done func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	g.approved++
	g.epoch++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.approved--
		g.epoch++
		g.mu.Unlock()
	}
}

// quiet reports whether no approved call ran since epoch e.
func (g *Guard) quiet(e uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.approved == 0 && g.epoch == e
}

// Set is what a guard watches.
type Set struct {
	// Paths are single files, absolute.
	Paths []string
	Trees []Tree
	// CommandPaths and CommandTrees are watched only around commands
	// (Take, not TakeTool).
	CommandPaths []string
	CommandTrees []Tree
	// Inert, by path, lets a change stand when it says the change runs
	// nothing (git's config, which git push -u and git remote add write
	// in the ordinary course).
	Inert map[string]func(before, after []byte) bool
}

func (s Set) with(o Set) Set {
	out := Set{
		Paths:        append(append([]string(nil), s.Paths...), o.Paths...),
		Trees:        append(append([]Tree(nil), s.Trees...), o.Trees...),
		CommandPaths: append(append([]string(nil), s.CommandPaths...), o.CommandPaths...),
		CommandTrees: append(append([]Tree(nil), s.CommandTrees...), o.CommandTrees...),
	}
	if len(s.Inert)+len(o.Inert) > 0 {
		out.Inert = map[string]func(before, after []byte) bool{}
		for _, m := range []map[string]func(before, after []byte) bool{s.Inert, o.Inert} {
			for k, v := range m {
				out.Inert[k] = v
			}
		}
	}
	return out
}

// New returns a guard of the files at paths (absolute).
func New(paths ...string) *Guard {
	return &Guard{set: Set{Paths: append([]string(nil), paths...)}, cache: map[string]state{}}
}

// WithSource adds what source returns, asked again at the start of each
// call, to what the guard watches.
func (g *Guard) WithSource(source func() Set) *Guard {
	g.source = source
	return g
}

// WithDirs adds directories whose entries are watched as files: one
// created there is removed again. Their subdirectories are not walked.
func (g *Guard) WithDirs(dirs ...string) *Guard {
	for _, d := range dirs {
		g.set.Trees = append(g.set.Trees, Tree{Path: d, Depth: 1})
	}
	return g
}

// WithTrees adds directories watched at every depth.
func (g *Guard) WithTrees(trees ...Tree) *Guard {
	g.set.Trees = append(g.set.Trees, trees...)
	return g
}

// WithInert lets a change of the file at path stand when inert says it
// changes nothing that runs (git's config, which git push -u and git
// remote add write in the ordinary course).
func (g *Guard) WithInert(path string, inert func(before, after []byte) bool) *Guard {
	if g.set.Inert == nil {
		g.set.Inert = map[string]func(before, after []byte) bool{}
	}
	g.set.Inert[path] = inert
	return g
}
