package permission

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
	"github.com/ponder-agent/ponder/internal/runfiles"
)

// This file judges the rules a plan asks to be granted. A plan is written
// by the model, so its rules are input like any other: what matters is
// what each would let through once allowed, judged from the rule as the
// engine compiles it, not from its wording.

// Reach is what allowing a rule would let through beyond the project.
type Reach struct {
	// Outside says the rule lets a call reach outside the project: write
	// or read files there, change files that decide what runs, or run
	// programs or tools ponder cannot see into.
	Outside bool
	// Why says how, in words for the user.
	Why string
}

// outsideProbe is a path no project contains, added to a prefix command
// rule to learn whether the words the rule leaves open may name a file
// the command writes.
const outsideProbe = "/ponder-outside-probe/file"

// executionProbes are files inside the project that decide what runs,
// made from every protected name (see configuresExecution), at the root
// and below it, in the spellings tools accept: a rule that may write any
// of them reaches as far as whatever runs them. The rule's own compiled
// pattern is matched against them, so no spelling of the pattern (a
// bracket, a '**') gets around the list.
func executionProbes() []string {
	var out []string
	for _, e := range runfiles.Table() {
		var forms []string
		for _, n := range []string{e.Sample(), strings.ToLower(e.Sample())} {
			forms = append(forms, n)
			if e.Tree {
				forms = append(forms, n+"/config", n+"/hooks/pre-commit", n+"/settings.json", n+"/x.yml")
			}
		}
		for _, f := range forms {
			out = append(out, f, "sub/"+f)
		}
	}
	return out
}

// protectedSegment returns the protected directory a segment of a path
// pattern can name (".gi[t]" names .git, ".v*" names .vscode), or "".
// A "**" segment is left to the probes: it would name them all.
func protectedSegment(spec string) string {
	segs := strings.Split(strings.ToLower(filepath.ToSlash(spec)), "/")
	for i, seg := range segs {
		if seg == "" || seg == "**" || seg == "~" || seg == "." || seg == ".." {
			continue
		}
		for _, e := range runfiles.Table() {
			first, second, pair := strings.Cut(strings.ToLower(e.Sample()), "/")
			if !e.Tree && !pair {
				continue
			}
			if ok, _ := path.Match(seg, first); !ok {
				continue
			}
			if !pair {
				return e.Pattern
			}
			if i+1 < len(segs) {
				if ok, _ := path.Match(segs[i+1], second); ok || segs[i+1] == "**" {
					return e.Pattern
				}
			}
		}
	}
	return ""
}

// commandName is the program a Bash rule names, for messages.
func commandName(r Rule) string {
	spec := parseCommandSpec(r.Specifier)
	if len(spec.words) == 0 {
		return "any command"
	}
	return shellclass.Program(spec.words[0])
}

// JudgeGrant parses a rule a plan asks for and says how far it reaches. A
// rule that does not parse is an error naming it.
func (e *Engine) JudgeGrant(text string) (Rule, Reach, error) {
	r, err := e.parse(text, SourceSession, "")
	if err != nil {
		return Rule{}, Reach{}, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	return r, e.reach(r), nil
}

func (e *Engine) reach(r Rule) Reach {
	switch r.kind() {
	case KindRead:
		if r.Specifier == "" {
			return Reach{true, "reads any file anywhere"}
		}
		return e.pathReach(r, false)
	case KindWrite:
		if r.Specifier == "" {
			return Reach{true, "changes any file anywhere"}
		}
		return e.pathReach(r, true)
	case KindExec:
		// A command runs whatever the project's files say (a Makefile, a
		// test, a package's scripts), and the plan's own edits write
		// those files: no command is granted without the user's yes.
		if why := commandReach(r, e.match.root); why.Outside {
			return why
		}
		return Reach{true, "runs " + commandName(r) + "; what a command does can hang on the files the plan edits, so none is granted on a plain yes"}
	case KindNetwork:
		if r.Specifier == "" {
			return Reach{true, "fetches any address"}
		}
		return Reach{true, "sends requests off this machine, which can carry the project's contents"}
	case KindAgent:
		return Reach{true, "launches agents, which may run commands of their own"}
	case KindNone:
		return Reach{}
	}
	if k, ok := e.match.tools[r.Tool]; ok && k == KindNone {
		return Reach{}
	}
	return Reach{true, "a tool ponder cannot see into"}
}

// pathReach judges a Read or Edit rule by its compiled patterns: each must
// start inside the project, and a writing one must not cover the files
// that decide what runs.
func (e *Engine) pathReach(r Rule, write bool) Reach {
	root := filepath.ToSlash(e.match.root)
	for _, p := range r.c.paths {
		if _, ok := below(root, p.base); !ok {
			if _, ok := below(filepath.ToSlash(e.canonRoot), p.base); !ok {
				return Reach{true, "files outside the project (" + p.base + ")"}
			}
		}
	}
	if write {
		if name := protectedSegment(r.Specifier); name != "" {
			return Reach{true, "files that decide what runs (" + name + ")"}
		}
		for _, rel := range executionProbes() {
			if e.match.pathMatches(r, path.Join(root, rel), pathHints{isDir: func() bool { return false }}) {
				return Reach{true, "files that decide what runs (" + rel + ")"}
			}
		}
	}
	return Reach{}
}

// commandReach judges a Bash rule: it must name a fixed program that runs
// no other commands, and the files the command it allows writes (with any
// further words, for a prefix rule) must stay in the project.
func commandReach(r Rule, root string) Reach {
	if r.Specifier == "" || r.Specifier == "*" || r.Specifier == ":*" {
		return Reach{true, "runs any command"}
	}
	spec := parseCommandSpec(r.Specifier)
	if len(spec.words) == 0 || strings.ContainsAny(spec.words[0], "*?[") {
		return Reach{true, "runs any command"}
	}
	prog := shellclass.Program(spec.words[0])
	if shellclass.RunsCommands(prog) || shellclass.RunsCommands(shellclass.BaseName(spec.words[0])) {
		return Reach{true, prog + " runs other commands"}
	}
	line := make([]string, len(spec.words))
	for i, w := range spec.words {
		line[i] = shellQuote(w)
	}
	if spec.prefix {
		// Two words, as programs such as cp write their last operand.
		line = append(line, outsideProbe+"-1", outsideProbe+"-2")
	}
	res := shellclass.Classify(strings.Join(line, " "))
	if res.Opaque != "" {
		return Reach{true, "runs commands ponder cannot see: " + res.Opaque}
	}
	if len(res.Fetches) > 0 {
		return Reach{true, prog + " talks to the network (it may change things elsewhere)"}
	}
	for _, c := range res.Commands {
		if len(c.Words) > 0 && shellclass.ServiceClient(shellclass.BaseName(shellclass.Program(c.Words[0].Text))) {
			return Reach{true, prog + " drives a service outside the project"}
		}
	}
	written := append([]string(nil), res.Writes...)
	for _, f := range res.Files {
		if f.Write {
			written = append(written, f.Path)
		}
	}
	for _, w := range written {
		if outsideRoot(w, root) {
			if strings.HasPrefix(w, outsideProbe) {
				return Reach{true, "may write files anywhere (" + prog + " with any path)"}
			}
			return Reach{true, "writes " + w}
		}
	}
	return Reach{}
}

// outsideRoot says a path as a command names it may lie outside root.
func outsideRoot(p, root string) bool {
	if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return true
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	return err != nil || rel == ".." || strings.HasPrefix(rel, "../")
}

// shellQuote quotes a word for the shell when it needs it.
func shellQuote(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`;&|<>(){}*?[]#~!") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
