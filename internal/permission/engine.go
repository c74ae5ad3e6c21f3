package permission

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// Behavior is the outcome of a decision.
type Behavior int

// The three outcomes.
const (
	Allow Behavior = iota + 1
	Ask
	Deny
)

func (b Behavior) String() string {
	switch b {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "unknown"
}

// Decision says whether a call may run, and why.
type Decision struct {
	Behavior Behavior
	// Reason explains the decision in a sentence fit for the model and
	// the user.
	Reason string
	// Rule names the rule or limit that decided ("deny rule Bash(rm:*)",
	// "plan mode").
	Rule string
	// Suggest is, for a decision to ask, a rule that would allow calls
	// like this one from now on ("yes, and don't ask again"), or "" when
	// no rule fits that is as narrow as what the user is shown.
	Suggest string
}

// Context is what the decision depends on besides the call itself.
type Context struct {
	Mode Mode
	// PlanFile is the plan file of the calling agent; in plan mode it is
	// the one file that may be written.
	PlanFile string
	// ReadOnlyAgent limits the caller to reading, as plan mode does but
	// without the plan file (Explore and Plan agents).
	ReadOnlyAgent bool
	// AgentType names the calling agent type, for messages.
	AgentType string
	// DeniedTools are tools the calling agent may not use at all.
	DeniedTools []string
}

// Engine holds the rules of a session and makes every permission decision.
// It is safe for concurrent use.
type Engine struct {
	mu    sync.RWMutex
	allow []Rule
	ask   []Rule
	deny  []Rule
	match matcher
	// canonRoot is the project root with symlinks resolved, once.
	canonRoot string
	// specs are the Bash rules' specifiers split into words, once.
	specs map[string]commandSpec
}

// Rules are the rule texts an engine starts with.
type Rules struct {
	Allow, Ask, Deny []string
}

// NewEngine parses the rules. Root is the project directory, against which
// relative path patterns resolve; home is the user's home directory.
func NewEngine(r Rules, root, home string) (*Engine, error) {
	allow, err := ParseRules(r.Allow)
	if err != nil {
		return nil, err
	}
	ask, err := ParseRules(r.Ask)
	if err != nil {
		return nil, err
	}
	deny, err := ParseRules(r.Deny)
	if err != nil {
		return nil, err
	}
	e := &Engine{allow: allow, ask: ask, deny: deny, match: matcher{root: root, home: home}, canonRoot: Canonical(root), specs: map[string]commandSpec{}}
	for _, rules := range [][]Rule{allow, ask, deny} {
		for _, r := range rules {
			e.addSpec(r)
		}
	}
	return e, nil
}

// AddAllow adds an allow rule for the rest of the session ("yes, and don't
// ask again").
func (e *Engine) AddAllow(text string) error {
	r, err := ParseRule(text)
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.allow = append(e.allow, r)
	e.addSpec(r)
	e.mu.Unlock()
	return nil
}

// Decide is the one place where ponder decides whether a tool call runs.
// The order is: tools the agent may not use; deny rules; the hard limits
// of plan mode and read-only agents (which no allow rule can lift); ask
// rules; allow rules; and last the mode's own default.
func (e *Engine) Decide(c Context, a Access) Decision {
	e.mu.RLock()
	defer e.mu.RUnlock()

	if slices.Contains(c.DeniedTools, a.Tool) {
		who := "this agent"
		if c.AgentType != "" {
			who = "the " + c.AgentType + " agent"
		}
		return Decision{Behavior: Deny, Rule: "agent tools", Reason: fmt.Sprintf("%s may not use %s.", who, a.Tool)}
	}

	// A shell line is parsed once per decision, for every check below.
	var class shellclass.Result
	if a.Kind == KindExec {
		class = shellclass.Classify(a.Command)
		if d, ok := fetchDenied(c, class); ok {
			return d
		}
	}
	// Each path is resolved once per decision, for the rules (which see
	// both forms), the plan-file check and the accept-edits check.
	canon := canonicalAll(a.Paths)
	it := items{paths: bothForms(a.Paths, canon)}
	if a.Kind == KindExec {
		if d, ok := e.execDenied(a, class); ok {
			return d
		}
	} else if r, ok := e.match.anyCovers(e.deny, a, it); ok {
		return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf("Denied by the permission rule %s.", r.Text)}
	}

	if c.Mode == ModePlan || c.ReadOnlyAgent {
		if d, decided := readOnlyLimit(c, a, canon, class); decided {
			return d
		}
	}

	if a.Kind == KindExec {
		if d, ok := e.execAsked(a, class); ok {
			return e.suggest(d, a, class)
		}
		if d, ok := e.execAllowed(a, class); ok {
			return d
		}
	} else {
		if r, ok := e.match.anyCovers(e.ask, a, it); ok {
			d := Decision{Behavior: Ask, Rule: "ask rule " + r.Text, Reason: fmt.Sprintf("The permission rule %s asks for confirmation.", r.Text)}
			return e.suggest(d, a, class)
		}
		if r, ok := e.match.allCovered(e.allow, a, it); ok {
			return Decision{Behavior: Allow, Rule: "allow rule " + r.Text, Reason: "Allowed by the permission rule " + r.Text + "."}
		}
	}
	return e.suggest(e.modeDefault(c, a, canon, class), a, class)
}

// modeDefault is what a mode does with a call no rule decided.
func (e *Engine) modeDefault(c Context, a Access, canon []string, class shellclass.Result) Decision {
	if c.Mode == ModeBypass {
		return Decision{Behavior: Allow, Rule: "mode", Reason: "Permissions are bypassed."}
	}
	switch a.Kind {
	case KindNone, KindRead, KindAgent:
		return Decision{Behavior: Allow, Rule: "mode", Reason: "Reading is allowed."}
	case KindExec:
		return e.execDefault(class)
	case KindWrite:
		if c.Mode == ModeAcceptEdits && allInside(a.Paths, e.match.root) && allInside(canon, e.canonRoot) {
			return Decision{Behavior: Allow, Rule: "mode", Reason: "Edits inside the project are accepted."}
		}
		return Decision{Behavior: Ask, Rule: "mode", Reason: "Changing " + strings.Join(a.Paths, ", ") + " needs approval."}
	case KindExternal:
		if a.ReadOnly {
			return Decision{Behavior: Allow, Rule: "mode", Reason: "The tool is marked read-only."}
		}
	}
	return Decision{Behavior: Ask, Rule: "mode", Reason: a.Tool + " needs approval."}
}

func canonicalAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = Canonical(p)
	}
	return out
}

// allInside reports whether every path lies inside root.
func allInside(paths []string, root string) bool {
	for _, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return false
		}
	}
	return len(paths) > 0
}
