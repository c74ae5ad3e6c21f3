package permission

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Rule is one permission rule: a tool, optionally narrowed by a specifier,
// e.g. "Bash(git diff:*)", "Edit(src/**)", "Read(~/.ssh/**)", "WebFetch".
//
// Rules for Read cover every reading tool (Read, Glob, Grep, LS) and rules
// for Edit or Write cover every writing tool, because what matters is the
// file, not the tool that touches it.
type Rule struct {
	Tool      string
	Specifier string
	// Text is the rule as written.
	Text string
	// c is what an engine made of the rule; nil until then. (A pointer
	// keeps Rule small, as rules are passed by value while matching.)
	c *compiled
}

// compiled is a rule as an engine holds it.
type compiled struct {
	// source and file say where the rule was written.
	source Source
	file   string
	// paths is a Read or Edit specifier compiled against the project root
	// and home directory, once as written and once more with symlinks in
	// its base directory resolved.
	paths []*pathPattern
	// url is a WebFetch specifier, parsed.
	url *urlSpec
	// kind is what the rule's tool name stands for (see matcher.ruleKind).
	kind Kind
	// modes are the only modes an allow rule counts in; nil for all.
	modes []Mode
}

// kind is the access kind the rule's tool name stands for, or -1 when the
// rule names one tool exactly.
func (r Rule) kind() Kind {
	if r.c != nil {
		return r.c.kind
	}
	return wordKind(r.Tool)
}

// origin names where the rule was written, for messages.
func (r Rule) origin() string {
	if r.c == nil {
		return SourceSession.String()
	}
	return where(r.c.source, r.c.file)
}

// ParseRule parses the text of one rule.
func ParseRule(text string) (Rule, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return Rule{}, fmt.Errorf("empty permission rule")
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if strings.ContainsAny(s, ") ") {
			return Rule{}, fmt.Errorf("permission rule %q: a tool name has no spaces or parentheses", text)
		}
		r := Rule{Tool: s, Text: s}
		return r, checkToolName(r, text)
	}
	if !strings.HasSuffix(s, ")") || open == 0 {
		return Rule{}, fmt.Errorf("permission rule %q: want Tool or Tool(specifier)", text)
	}
	spec := strings.TrimSpace(s[open+1 : len(s)-1])
	if spec == "" {
		return Rule{}, fmt.Errorf("permission rule %q: the specifier in parentheses is empty", text)
	}
	r := Rule{Tool: strings.TrimSpace(s[:open]), Specifier: spec, Text: s}
	if strings.ContainsAny(r.Tool, "() ") {
		return Rule{}, fmt.Errorf("permission rule %q: want Tool or Tool(specifier)", text)
	}
	if spec == "*" {
		// Tool(*) is every use of the tool, as Tool alone is.
		r.Specifier = ""
		return r, checkToolName(r, text)
	}
	if err := checkToolName(r, text); err != nil {
		return Rule{}, err
	}
	if err := checkSpecifier(r); err != nil {
		return Rule{}, fmt.Errorf("permission rule %q: %v", text, err)
	}
	return r, nil
}

// checkToolName rejects a tool name that differs from one of ponder's
// only in case: such a rule would match nothing, and a deny rule that
// silently protects nothing is worse than a refusal to start.
func checkToolName(r Rule, text string) error {
	if slices.Contains(knownTools, r.Tool) {
		return nil
	}
	for _, k := range knownTools {
		if strings.EqualFold(k, r.Tool) {
			return fmt.Errorf("permission rule %q: tool names are case-sensitive; write %s", text, k)
		}
	}
	return nil
}

// checkSpecifier rejects specifiers that could never match what their
// tool does, so that a rule meant to protect something cannot silently
// protect nothing.
func checkSpecifier(r Rule) error {
	switch wordKind(r.Tool) {
	case KindRead, KindWrite:
		_, err := compilePath(r.Specifier, "/", "/")
		return err
	case KindNetwork:
		_, err := parseURLSpec(r.Specifier)
		return err
	case KindAgent:
		if _, err := path.Match(r.Specifier, ""); err != nil {
			return fmt.Errorf("%q is not a valid agent-type pattern (* ? and [...] are wildcards)", r.Specifier)
		}
	}
	return nil
}

// ParseRules parses a list of rules; the error names the first bad one.
func ParseRules(texts []string) ([]Rule, error) {
	out := make([]Rule, 0, len(texts))
	for _, t := range texts {
		for _, part := range SplitRuleList(t) {
			r, err := ParseRule(part)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// SplitRuleList splits "Read,Bash(git diff:*),Edit(a,b)" on the commas that
// are not inside parentheses, as --allowedTools takes them.
func SplitRuleList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth = max(0, depth-1)
		case ',':
			if depth == 0 {
				if part := strings.TrimSpace(s[start:i]); part != "" {
					out = append(out, part)
				}
				start = i + 1
			}
		}
	}
	if part := strings.TrimSpace(s[start:]); part != "" {
		out = append(out, part)
	}
	return out
}

// matcher decides whether rules match an access.
type matcher struct {
	root string
	home string
	// tools are the kinds the session's tools declare (Rules.Tools).
	tools map[string]Kind
}

// items are the parts of an access that rules match one by one: its
// paths (as given and canonical). Shell lines are matched in exec.go.
type items struct {
	paths []string
	hints pathHints
}

// list returns the strings rules compare with, and whether the access is
// matched part by part at all.
func (it items) list(a Access) ([]string, bool) {
	switch a.Kind {
	case KindRead, KindWrite:
		return it.paths, true
	}
	return nil, false
}

// applies reports whether rule r is about the tool or kind of access a.
func applies(r Rule, a Access) bool {
	if r.Tool == a.Tool || mcpCovers(r.Tool, a.Tool) {
		return true
	}
	k := r.kind()
	return k >= 0 && k == a.Kind
}

// matchItem reports whether r's specifier matches one part of a.
func (m matcher) matchItem(r Rule, a Access, item string, hints pathHints) bool {
	switch a.Kind {
	case KindRead, KindWrite:
		return m.pathMatches(r, item, hints)
	}
	return false
}

// matchWhole reports whether r's specifier matches an access that has no
// parts (a URL, an agent type, another tool's target).
func (m matcher) matchWhole(r Rule, a Access) bool {
	if a.Kind == KindNetwork {
		if r.c != nil && r.c.url != nil {
			return r.c.url.matches(a.Target)
		}
		return networkMatches(r.Specifier, a.Target)
	}
	if a.Kind == KindAgent {
		// Agent types may be named by pattern: Task(Explore*).
		ok, _ := path.Match(r.Specifier, a.Target)
		return ok
	}
	return r.Specifier == a.Target
}

// anyCovers returns the first rule that applies to some part of a (one of
// its paths, one simple command of its shell line). Deny and ask rules
// need no more.
func (m matcher) anyCovers(rules []Rule, a Access, it items) (Rule, bool) {
	parts, split := it.list(a)
	for _, r := range rules {
		if !applies(r, a) {
			continue
		}
		if r.Specifier == "" {
			return r, true
		}
		if !split {
			if m.matchWhole(r, a) {
				return r, true
			}
			continue
		}
		for _, p := range parts {
			if m.matchItem(r, a, p, it.hints) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// allCovered reports whether the rules together cover every part of a,
// and names one of them. Allow rules need this, so that "Bash(git diff:*)"
// never lets "git diff && rm -rf ." through.
func (m matcher) allCovered(rules []Rule, a Access, it items) (Rule, bool) {
	parts, split := it.list(a)
	if !split || len(parts) == 0 {
		return m.anyCovers(rules, a, it)
	}
	var first Rule
	for i, p := range parts {
		found := false
		for _, r := range rules {
			if applies(r, a) && (r.Specifier == "" || m.matchItem(r, a, p, it.hints)) {
				if i == 0 {
					first = r
				}
				found = true
				break
			}
		}
		if !found {
			return Rule{}, false
		}
	}
	return first, true
}
