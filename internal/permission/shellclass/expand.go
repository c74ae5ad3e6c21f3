package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the checks inside words and expressions: [[ ]] tests,
// parameter expansions and arithmetic.

// test checks the expression of a [[ ]] clause.
func (w *walker) test(x syntax.TestExpr) {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			// Both operands are evaluated as arithmetic.
			for _, y := range []syntax.TestExpr{x.X, x.Y} {
				if word, ok := y.(*syntax.Word); ok {
					w.arith(word, "an arithmetic test")
				} else {
					w.test(y)
				}
			}
		default:
			w.test(x.X)
			w.test(x.Y)
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			if word, ok := x.X.(*syntax.Word); ok {
				v := w.wordArg(word)
				if !v.lit || !validName(v.text) {
					w.hidef("tests %s %s, which is not a plain variable name", x.Op, v.text)
				}
				return
			}
		}
		w.test(x.X)
	case *syntax.ParenTest:
		w.test(x.X)
	case *syntax.Word:
		w.word(x)
	case nil:
	default:
		w.hide("uses a test expression that is not checked")
	}
}

// word walks the expansions inside a word.
func (w *walker) word(word *syntax.Word) {
	if word == nil {
		return
	}
	for _, p := range word.Parts {
		w.part(p, false)
	}
}

func (w *walker) part(p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if w.zsh && !quoted && strings.ContainsAny(p.Value, "()") {
			w.deny("uses a zsh glob qualifier, which can run code")
		}
	case *syntax.SglQuoted:
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			w.part(q, true)
		}
	case *syntax.ParamExp:
		w.paramExp(p)
	case *syntax.CmdSubst:
		w.visited[p] = true
		if p.TempFile || p.ReplyVar {
			w.hide("uses a command substitution form that is not checked")
		}
		w.stmts(p.Stmts)
	case *syntax.ProcSubst:
		w.visited[p] = true
		w.stmts(p.Stmts)
	case *syntax.ArithmExp:
		w.visited[p] = true
		w.arith(p.X, "an arithmetic expansion")
	case *syntax.ExtGlob:
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			w.word(e)
		}
	default:
		w.hidef("uses a word form that is not checked (%T)", p)
	}
}

// harmlessParamOps are the ${x@OP} operators that only transform the value.
var harmlessParamOps = map[string]bool{
	"Q": true, "E": true, "A": true, "K": true, "k": true,
	"a": true, "L": true, "U": true, "u": true,
}

func (w *walker) paramExp(pe *syntax.ParamExp) {
	w.visited[pe] = true
	name := ""
	if pe.Param != nil {
		name = pe.Param.Value
	}
	if pe.Flags != nil || pe.GlobSubst == syntax.OptOn || len(pe.Modifiers) > 0 {
		w.deny("uses a zsh parameter flag, which is not checked")
	}
	if pe.NestedParam != nil {
		w.part(pe.NestedParam, true)
	}
	if pe.Excl && pe.Names == 0 && !isAllIndex(pe.Index) {
		w.evalRef(name, "an indirect expansion ${!"+name+"}")
	}
	if pe.Index != nil && !isAllIndex(pe.Index) {
		w.arith(pe.Index, "an array index")
	}
	if pe.Slice != nil {
		if pe.Slice.Offset != nil {
			w.arith(pe.Slice.Offset, "a substring expansion")
		}
		if pe.Slice.Length != nil {
			w.arith(pe.Slice.Length, "a substring expansion")
		}
	}
	if pe.Repl != nil {
		w.word(pe.Repl.Orig)
		w.word(pe.Repl.With)
	}
	if pe.Exp != nil {
		w.word(pe.Exp.Word)
		switch pe.Exp.Op {
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			value := &unknownValue
			if pe.Exp.Word != nil {
				v := w.describe(pe.Exp.Word)
				value = &v
			}
			w.varChange(name, w.text(pe), value, false)
			w.setVar(name, pe.Exp.Word == nil || numericWord(pe.Exp.Word))
		case syntax.OtherParamOps:
			op := ""
			if pe.Exp.Word != nil {
				op = pe.Exp.Word.Lit()
			}
			if !harmlessParamOps[op] {
				w.hidef("uses ${%s@%s}, which can run commands hidden in the value", name, op)
			}
		}
	}
}

// isAllIndex reports whether an index is [@] or [*].
func isAllIndex(x syntax.ArithmExpr) bool {
	word, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := word.Lit()
	return l == "@" || l == "*"
}

// arith checks an arithmetic context. Bash evaluates variables used there
// recursively, and an array subscript inside a value runs command
// substitutions, so text that could carry one makes the line opaque (it
// may run commands it does not show) and every variable used is noted for
// finish.
func (w *walker) arith(x syntax.ArithmExpr, context string) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			w.arithText(n.Value, context)
		case *syntax.SglQuoted:
			w.arithText(n.Value, context)
		case *syntax.ParamExp:
			if n.Param != nil && !n.Length {
				w.evalRef(n.Param.Value, context)
			}
			w.paramExp(n)
			return false
		case *syntax.CmdSubst:
			w.hidef("uses command output in %s, where bash would run command substitutions hidden in it", context)
			w.part(n, false)
			return false
		case *syntax.ProcSubst:
			w.hidef("uses a process substitution in %s", context)
			w.part(n, false)
			return false
		case *syntax.ArithmExp:
			w.visited[n] = true
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn,
				syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn,
				syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.PowAssgn,
				syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn:
				w.arithTarget(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				w.arithTarget(n.X)
			}
		case *syntax.ExtGlob, *syntax.BraceExp:
			w.hidef("uses a pattern in %s", context)
		}
		return true
	})
}

// arithTarget notes the variable an arithmetic assignment sets: it gets a
// number.
func (w *walker) arithTarget(x syntax.ArithmExpr) {
	word, ok := x.(*syntax.Word)
	if !ok || len(word.Parts) == 0 {
		return
	}
	var name string
	switch p := word.Parts[0].(type) {
	case *syntax.Lit:
		name = leadingName(p.Value)
	case *syntax.ParamExp:
		if p.Param != nil {
			name = p.Param.Value
		}
	}
	if name == "" {
		return
	}
	w.varChange(name, name+" (arithmetic)", &unknownValue, false)
	w.setVar(name, true)
}

// arithText checks literal text inside an arithmetic context.
func (w *walker) arithText(s, context string) {
	if strings.ContainsAny(s, "$`") {
		w.hidef("has %q in %s, where bash would run it as a command substitution", s, context)
	}
	for _, name := range arithNames(s) {
		w.evalRef(name, context)
	}
}
