package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assign checks one assignment, as a prefix of a command, on its own, or in
// a declaration builtin. It reports whether the value was a plain literal.
func (w *walker) assign(a *syntax.Assign) bool {
	if a.Name == nil {
		if a.Value != nil {
			w.wordArg(a.Value)
		}
		w.deny("uses an assignment form that is not checked")
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
	w.deny(assignReason(name, value.text, value.lit && a.Array == nil, w.zsh))
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
	words := []string{variant}
	literal := true
	switch variant {
	case "declare", "typeset", "local", "export", "readonly":
	default:
		w.denyf("%q is not a known read-only command", variant)
	}
	for _, a := range d.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			words = append(words, w.text(a))
			literal = w.assign(a) && literal
			continue
		}
		// A word that is not written as an assignment: an option, a name,
		// or a quoted "name=value".
		v := w.wordArg(a.Value)
		words = append(words, v.text)
		literal = literal && v.lit
		if !v.lit {
			w.denyf("%s is given %s, which is not a plain word", variant, v.text)
			continue
		}
		t := v.text
		if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			if t[0] == '-' && variant != "export" && variant != "readonly" {
				if strings.ContainsRune(t, 'n') {
					w.denyf("%s %s makes a name reference, which can assign any variable", variant, t)
				}
				if strings.ContainsRune(t, 'i') {
					w.denyf("%s %s makes an integer variable, whose values bash evaluates as arithmetic", variant, t)
				}
			}
			continue
		}
		name, value, hasValue := strings.Cut(t, "=")
		name = strings.TrimSuffix(name, "+")
		if !validName(name) {
			w.denyf("%s is given %q, which is not a plain variable name", variant, t)
			continue
		}
		if hasValue {
			w.deny(assignReason(name, value, true, w.zsh))
			w.setVar(name, numericText(value))
		}
	}
	w.record(words, literal)
}
