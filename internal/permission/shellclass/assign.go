package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assign checks one assignment, as a prefix of a command, on its own, or in
// a declaration builtin. exported says the variable reaches the environment
// of a program. It reports whether the value was a plain literal.
func (w *walker) assign(a *syntax.Assign, exported bool) bool {
	if a.Name == nil {
		if a.Value != nil {
			w.wordArg(a.Value)
		}
		w.hide("uses an assignment form that is not checked")
		return false
	}
	name := a.Name.Value
	if a.Index != nil {
		w.arith(a.Index, "an array index")
	}
	var value arg
	if a.Value != nil && a.Array == nil {
		value = w.wordArg(a.Value)
	} else {
		value = litArg("")
	}
	text := w.text(a)
	if a.Naked && a.Value == nil {
		w.varChange(name, text, nil, exported)
	} else {
		v := value
		if a.Array != nil || a.Index != nil {
			v = unknownValue
		}
		w.varChange(name, text, &v, exported)
	}
	lit := value.lit
	switch {
	case a.Array != nil:
		numeric := true
		for _, e := range a.Array.Elems {
			if e.Index != nil {
				w.arith(e.Index, "an array index")
			}
			if e.Value != nil {
				lit = w.wordArg(e.Value).lit && lit
				numeric = numeric && numericWord(e.Value)
			}
		}
		w.setVar(name, numeric)
	case a.Value != nil:
		w.setVar(name, numericWord(a.Value))
	case !a.Naked:
		w.setVar(name, true) // "x=" sets the empty string, which counts as 0
	}
	return lit
}

// decl checks declare, local, export, readonly and typeset.
func (w *walker) decl(d *syntax.DeclClause) {
	variant := d.Variant.Value
	// The command is recorded first, so that what its arguments do counts
	// against it; its words are filled in at the end.
	outer := w.cur
	w.cur = w.recordArgs(nil, nil)
	defer func() { w.cur = outer }()
	var words []arg
	words = append(words, litArg(variant))
	switch variant {
	case "declare", "typeset", "local", "export", "readonly":
	default:
		w.denyf("%q is not a known read-only command", variant)
	}
	exported := variant == "export"
	unexport := false
	arrays := false
	// The options come first; they decide whether the names are exported.
	for _, a := range d.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			continue
		}
		t := a.Value.Lit()
		if t == "" || (t[0] != '-' && t[0] != '+') {
			continue
		}
		if strings.ContainsRune(t[1:], 'x') {
			exported = exported || t[0] == '-'
			unexport = unexport || t[0] == '+'
		}
		if variant == "export" && t[0] == '-' && strings.ContainsRune(t[1:], 'n') {
			unexport = true
		}
		arrays = arrays || t[0] == '-' && strings.ContainsAny(t[1:], "aA")
	}
	// A value bash may read as a compound array assignment.
	compound := func(name string, v arg) bool {
		if v.lit {
			return strings.HasPrefix(v.text, "(")
		}
		return (arrays || w.arrays[name]) && (v.prefix == "" || strings.HasPrefix(v.prefix, "("))
	}
	for _, a := range d.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			if a.Name != nil && a.Value != nil && a.Array == nil && compound(a.Name.Value, w.describe(a.Value)) {
				w.hidef("%s is given %s, whose value bash may read as an array assignment and run the code in it", variant, w.text(a))
			}
			words = append(words, arg{text: w.text(a), lit: false, single: true, dashSafe: true})
			if unexport && a.Naked && a.Name != nil && a.Value == nil {
				w.dropVar(a.Name.Value, variant+" "+a.Name.Value)
				words[len(words)-1].lit = true
				continue
			}
			if w.assign(a, exported) && a.Array == nil {
				words[len(words)-1].lit = true
			}
			continue
		}
		// A word that is not written as an assignment: an option, a name,
		// or a quoted "name=value".
		v := w.wordArg(a.Value)
		words = append(words, v)
		if !v.lit {
			w.hidef("%s is given %s, which is not a plain word", variant, v.text)
			continue
		}
		t := v.text
		if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			if t[0] == '-' && variant != "export" && variant != "readonly" {
				if strings.ContainsRune(t, 'n') {
					w.hidef("%s %s makes a name reference, which can assign any variable", variant, t)
				}
				if strings.ContainsRune(t, 'i') {
					w.hidef("%s %s makes an integer variable, whose values bash evaluates as arithmetic", variant, t)
				}
			}
			continue
		}
		name, value, hasValue := strings.Cut(t, "=")
		name = strings.TrimSuffix(name, "+")
		if !validName(name) {
			w.hidef("%s is given %q, which is not a plain variable name", variant, t)
			continue
		}
		switch {
		case unexport:
			w.dropVar(name, variant+" "+t)
		case hasValue:
			if compound(name, litArg(value)) {
				w.hidef("%s is given %q, whose value bash may read as an array assignment and run the code in it", variant, t)
			}
			val := litArg(value)
			w.varChange(name, t, &val, exported)
			w.setVar(name, numericText(value))
		case exported:
			w.varChange(name, variant+" "+t, nil, true)
		}
	}
	c := Command{Args: make([]string, len(words)), Literal: true, Words: make([]Word, len(words))}
	for i, a := range words {
		c.Args[i] = a.text
		c.Literal = c.Literal && a.lit
		c.Words[i] = a.word()
	}
	w.cmds[w.cur] = c
}
