package shellclass

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker holds what one call to Classify has learned so far. It is created
// per call; nothing is shared between calls.
type walker struct {
	src   string             // source text of the code being walked
	lang  syntax.LangVariant // the dialect of the code being walked
	zsh   bool               // the code being walked is zsh code
	depth int                // how many command strings deep the walk is

	reason  string    // the first reason found; empty while read-only
	opaque  string    // why the line may run commands not in cmds
	cmds    []Command // simple commands in the order they were found
	bad     []bool    // per command: it is not read-only on its own
	cur     int       // the command being checked, or -1
	maybe   bool      // commands found now are guesses (Command.Maybe)
	files   []FileUse // files commands name to read or write
	cwd     cwd       // the directory of the cds so far
	nest    int       // how deep in subshells, pipelines and compound commands the walk is
	writes  []string  // files redirections may write
	env     []string  // environment changes that are not known to be harmless
	fetches []Fetch   // network requests
	stored  []Stored  // git commands that can print stored content

	funcs   map[string]bool      // functions the line defines
	arrays  map[string]bool      // variables the line may make arrays
	visited map[syntax.Node]bool // nodes the walk has examined
	tainted map[string]bool      // variables given a value the line cannot vouch for
	numeric map[string]bool      // variables given a number by the line
	evals   map[string]string    // variables whose value bash evaluates, and where
}

func newWalker() *walker {
	return &walker{
		lang:    syntax.LangBash,
		cur:     -1,
		funcs:   map[string]bool{},
		arrays:  map[string]bool{},
		visited: map[syntax.Node]bool{},
		tainted: map[string]bool{},
		numeric: map[string]bool{},
		evals:   map[string]string{},
	}
}

// deny records why the line is not read-only; the first reason wins.
func (w *walker) deny(reason string) {
	if reason == "" {
		return
	}
	if w.reason == "" {
		w.reason = reason
	}
	if w.cur >= 0 {
		w.bad[w.cur] = true
	}
}

func (w *walker) denyf(format string, args ...any) {
	w.deny(fmt.Sprintf(format, args...))
}

// hide records that the line may run commands the walk cannot list, and
// why. The line is not read-only either.
func (w *walker) hide(reason string) {
	if reason == "" {
		return
	}
	w.deny(reason)
	if w.opaque == "" {
		w.opaque = reason
	}
}

func (w *walker) hidef(format string, args ...any) {
	w.hide(fmt.Sprintf(format, args...))
}

// source parses src and walks it. langs are the dialects the code may be
// read in: the first is the one it is walked in, and every other one must
// read it the same way, or the code is refused. what names the program
// the code was given to (such as "sh -c"), or is empty for the command
// line itself. fresh says the code runs in a new shell process, which does
// not know the functions defined so far.
func (w *walker) source(src string, langs []syntax.LangVariant, what string, fresh bool) bool {
	if w.depth >= maxDepth {
		w.hide("command strings are nested too deeply to check")
		return false
	}
	f, reason := parseAgreed(src, langs)
	if reason != "" {
		if what != "" {
			reason = fmt.Sprintf("the code given to %s: %s", what, reason)
		}
		w.hide(reason)
		return false
	}
	if reason := parserGaps(f, src); reason != "" {
		if what != "" {
			reason = fmt.Sprintf("the code given to %s %s", what, reason)
		}
		w.hide(reason)
		return false
	}
	collectArrays(f, w.arrays)
	oldSrc, oldLang, oldZsh, oldFuncs := w.src, w.lang, w.zsh, w.funcs
	w.src, w.lang, w.zsh = src, langs[0], langs[0] == syntax.LangZsh
	if fresh {
		w.funcs = map[string]bool{}
	}
	w.depth++
	defer func() {
		w.src, w.lang, w.zsh, w.funcs = oldSrc, oldLang, oldZsh, oldFuncs
		w.depth--
	}()
	for _, s := range f.Stmts {
		w.stmt(s)
		// A function counts as defined for the statements after its
		// definition, and only when the definition is sure to run in
		// this shell: at the top level, not in a background job.
		if fd, ok := s.Cmd.(*syntax.FuncDecl); ok && !s.Background && !s.Coprocess && !s.Disown {
			if fd.Name != nil {
				w.funcs[fd.Name.Value] = true
			}
			for _, name := range fd.Names {
				w.funcs[name.Value] = true
			}
		}
	}
	w.checkVisited(f)
	return true
}

// checkVisited makes sure the walk looked at every statement, substitution,
// parameter expansion and redirection of f. Anything missed is a bug in
// this package; it must not become a silent "read-only".
func (w *walker) checkVisited(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.Stmt, *syntax.CmdSubst, *syntax.ProcSubst,
			*syntax.ParamExp, *syntax.ArithmExp, *syntax.Redirect:
			if !w.visited[n] {
				w.hide("part of the command could not be examined")
				return false
			}
		}
		return true
	})
}

// finish applies the checks that need the whole line: variables that bash
// evaluates must only ever have been given numbers. Any other value may
// hide commands that bash runs while it evaluates it, so the line is
// opaque: no rule can vouch for it. It also gives each command its own
// verdict.
func (w *walker) finish() {
	defer func() {
		for i := range w.cmds {
			w.cmds[i].ReadOnly = !w.bad[i]
		}
	}()
	for _, e := range w.env {
		name, _, _ := strings.Cut(e, "=")
		if f := strings.Fields(name); len(f) > 0 && proxyVariable(f[len(f)-1]) {
			w.unknownAddresses(0, fmt.Sprintf("the line changes %s, which can send requests elsewhere", f[len(f)-1]))
			break
		}
	}
	names := make([]string, 0, len(w.evals))
	for name := range w.evals {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !w.tainted[name] && (numericSpecial[name] || w.numeric[name]) {
			continue
		}
		w.hidef("uses the variable %q in %s, where bash would run command substitutions hidden in its value; only variables this command sets to numbers are allowed there", name, w.evals[name])
	}
}

// evalRef notes that bash evaluates the value of the variable name (as
// arithmetic, or as another variable's name) in the given context.
func (w *walker) evalRef(name, context string) {
	if name == "" {
		return
	}
	if _, ok := w.evals[name]; !ok {
		w.evals[name] = context
	}
}

// setVar notes an assignment to name; numeric says the value is a number.
func (w *walker) setVar(name string, numeric bool) {
	if numeric {
		w.numeric[name] = true
	} else {
		w.tainted[name] = true
	}
}

// text returns the source text of n.
func (w *walker) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// stmts walks statements inside another construct (a subshell, a loop, a
// substitution, ...), where a cd does not reliably move later commands.
func (w *walker) stmts(list []*syntax.Stmt) {
	w.nest++
	defer func() { w.nest-- }()
	for _, s := range list {
		w.stmt(s)
	}
}

func (w *walker) stmt(s *syntax.Stmt) {
	if s == nil {
		return
	}
	w.visited[s] = true
	if s.Coprocess || s.Disown {
		w.deny("runs a job in a form that is not checked")
	}
	if s.Background {
		w.deny("starts a background job (&), which would go on running after the command returns")
	}
	if s.Cmd != nil {
		w.command(s.Cmd)
	}
	for _, r := range s.Redirs {
		w.redirect(r)
	}
}

func (w *walker) command(cmd syntax.Command) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		w.call(c)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			w.stmts(c.Cond)
			w.stmts(c.Then)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		w.loop(c)
		w.stmts(c.Do)
	case *syntax.CaseClause:
		w.word(c.Word)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.word(p)
			}
			w.stmts(item.Stmts)
		}
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.stmts(c.Stmts)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			w.nest++
			defer func() { w.nest-- }()
		}
		w.stmt(c.X)
		w.stmt(c.Y)
	case *syntax.FuncDecl:
		w.stmt(c.Body)
	case *syntax.ArithmCmd:
		w.arith(c.X, "an arithmetic command")
	case *syntax.TestClause:
		w.test(c.X)
	case *syntax.DeclClause:
		w.decl(c)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			w.arith(x, "let")
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.deny("coproc starts a background process that is not checked")
		if c.Name != nil {
			w.word(c.Name)
		}
		w.stmt(c.Stmt)
	default:
		w.hidef("uses shell syntax that is not checked (%T)", cmd)
	}
}

func (w *walker) loop(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		name := l.Name.Value
		w.varChange(name, "for "+name, &unknownValue, false)
		numeric := !c.Select
		for _, item := range l.Items {
			w.wordArg(item)
			if !numericWord(item) && !braceSequence(item) {
				numeric = false
			}
		}
		if len(l.Items) == 0 && !l.InPos.IsValid() {
			// "for x; do" walks the positional parameters.
			numeric = false
		}
		w.setVar(name, numeric)
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
			if x != nil {
				w.arith(x, "a for loop")
			}
		}
	default:
		w.hide("uses a loop form that is not checked")
	}
}

func (w *walker) call(c *syntax.CallExpr) {
	// Assignments in front of a command reach its environment; on their
	// own they set shell variables.
	for _, a := range c.Assigns {
		w.assign(a, len(c.Args) > 0)
	}
	if len(c.Args) == 0 {
		return
	}
	args := make([]arg, len(c.Args))
	for i, word := range c.Args {
		args[i] = w.wordArg(word)
	}
	w.runAs(args, nil, true)
}

// run records and checks a command started by another program.
func (w *walker) run(args []arg, extra []arg) {
	w.runAs(args, extra, false)
}

// runAs records one simple command and checks it. extra are arguments the
// command gets at run time on top of args (as from xargs); they make the
// recorded command non-literal. direct says the shell runs the command
// itself, so that it may be a function.
func (w *walker) runAs(args []arg, extra []arg, direct bool) {
	if len(args) == 0 {
		return
	}
	all := args
	if len(extra) > 0 {
		all = append(slices.Clip(args), extra...)
	}
	outer := w.cur
	w.cur = w.recordArgs(args, all)
	w.deny(w.check(all, direct))
	w.cur = outer
}

// recordArgs records a command and returns its index: shown are its words
// as written, words are those and the ones it gets at run time.
func (w *walker) recordArgs(shown, words []arg) int {
	c := Command{Args: make([]string, len(shown)), Literal: len(words) == len(shown), Words: make([]Word, len(words)), Maybe: w.maybe}
	for i, a := range shown {
		c.Args[i] = a.text
		c.Literal = c.Literal && a.lit
	}
	for i, a := range words {
		c.Words[i] = a.word()
	}
	w.cmds = append(w.cmds, c)
	w.bad = append(w.bad, false)
	return len(w.cmds) - 1
}
