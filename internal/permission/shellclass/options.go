package shellclass

import (
	"fmt"
	"strings"
)

// optKind says whether an option takes a value.
type optKind uint8

const (
	noValue    optKind = iota
	needsValue         // in the same word or the next one
	mayValue           // only in the same word: -xVALUE or --name=VALUE
)

// optSpec describes a program's options, getopt style. Options the spec
// does not list are refused: parse is an allow-list.
type optSpec struct {
	flags    string // short options without a value
	values   string // short options that need a value
	optional string // short options with an optional attached value
	long     map[string]optKind
	// exactLong refuses abbreviated long options. GNU getopt accepts any
	// unambiguous prefix; programs with an incomplete long list here must
	// set exactLong so that an abbreviation cannot reach an unlisted option.
	exactLong bool
	// stop ends option parsing at the first operand, as wrappers do.
	stop bool
}

// opt is one parsed option.
type opt struct {
	name   string // the letter for a short option, the full name for a long one
	val    arg
	hasVal bool
}

// parsedArgs is the result of optSpec.parse.
type parsedArgs struct {
	opts     []opt
	operands []arg
	rest     []arg // with stop: the first operand and everything after it
}

// has reports whether any of the named options was given.
func (p parsedArgs) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// vals returns the values given to the named options.
func (p parsedArgs) vals(names ...string) []arg {
	var out []arg
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n && o.hasVal {
				out = append(out, o.val)
			}
		}
	}
	return out
}

func (s *optSpec) shortKind(c byte) (optKind, bool) {
	switch {
	case strings.IndexByte(s.flags, c) >= 0:
		return noValue, true
	case strings.IndexByte(s.values, c) >= 0:
		return needsValue, true
	case strings.IndexByte(s.optional, c) >= 0:
		return mayValue, true
	}
	return 0, false
}

// resolve finds the long option name stands for.
func (s *optSpec) resolve(name string) (string, optKind, bool) {
	if kind, ok := s.long[name]; ok {
		return name, kind, true
	}
	if s.exactLong || name == "" {
		return "", 0, false
	}
	found, kind, n := "", optKind(0), 0
	for full, k := range s.long {
		if strings.HasPrefix(full, name) {
			found, kind = full, k
			n++
		}
	}
	return found, kind, n == 1
}

// parse splits args into options and operands. It returns a reason when an
// argument cannot be understood: an unknown option, a missing value, or a
// word that is only known at run time and could be an option.
func (s *optSpec) parse(prog string, args []arg) (parsedArgs, string) {
	var p parsedArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		operand := false
		switch {
		case !a.lit:
			if !a.dashSafe {
				return p, fmt.Sprintf("%q is given %s, which could turn out to be any option", prog, a.text)
			}
			operand = true
		case a.text == "--":
			if s.stop {
				p.rest = args[i+1:]
			} else {
				p.operands = append(p.operands, args[i+1:]...)
			}
			return p, ""
		case strings.HasPrefix(a.text, "--"):
			name, val, hasVal := strings.Cut(a.text[2:], "=")
			full, kind, ok := s.resolve(name)
			if !ok {
				return p, fmt.Sprintf("%q option --%s is not known to be safe", prog, name)
			}
			o := opt{name: full}
			switch {
			case kind == noValue && hasVal:
				return p, fmt.Sprintf("%q option --%s takes no value", prog, full)
			case hasVal:
				o.val, o.hasVal = litArg(val), true
			case kind == needsValue:
				if i+1 >= len(args) {
					return p, fmt.Sprintf("%q option --%s needs a value", prog, full)
				}
				i++
				o.val, o.hasVal = args[i], true
			}
			p.opts = append(p.opts, o)
		case len(a.text) > 1 && a.text[0] == '-':
			t := a.text
			for j := 1; j < len(t); j++ {
				kind, ok := s.shortKind(t[j])
				if !ok {
					return p, fmt.Sprintf("%q option -%c is not known to be safe", prog, t[j])
				}
				o := opt{name: string(t[j])}
				if kind != noValue {
					switch {
					case j+1 < len(t):
						o.val, o.hasVal = litArg(t[j+1:]), true
					case kind == needsValue:
						if i+1 >= len(args) {
							return p, fmt.Sprintf("%q option -%c needs a value", prog, t[j])
						}
						i++
						o.val, o.hasVal = args[i], true
					}
					j = len(t)
				}
				p.opts = append(p.opts, o)
			}
		default:
			operand = true
		}
		if operand {
			if s.stop {
				p.rest = args[i:]
				return p, ""
			}
			p.operands = append(p.operands, a)
		}
	}
	return p, ""
}

// longPrefixOf reports whether the option word a (such as "--out=x") names
// the long option full or an abbreviation of it.
func longPrefixOf(a, full string) bool {
	name, ok := strings.CutPrefix(a, "--")
	if !ok {
		return false
	}
	name, _, _ = strings.Cut(name, "=")
	return name != "" && strings.HasPrefix(full, name)
}

// shortCluster returns the letters of a word such as "-abc", or "" when the
// word is not a cluster of short options.
func shortCluster(a arg) string {
	if !a.lit || len(a.text) < 2 || a.text[0] != '-' || a.text[1] == '-' {
		return ""
	}
	return a.text[1:]
}

// unsure returns the reason for refusing an argument that could be any
// option, or "" when a is safe to skip.
func unsure(prog string, a arg) string {
	if a.lit || a.dashSafe {
		return ""
	}
	return fmt.Sprintf("%q is given %s, which could turn out to be any option", prog, a.text)
}
