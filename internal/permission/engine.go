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
	// Sandbox says the command must run inside the OS sandbox: every
	// command in plan mode and in read-only agents, and elsewhere a
	// command allowed only because it was judged read-only. A command the
	// user or an allow rule approved, or one run in bypass mode, is not
	// confined. For an Ask it says what applies once the user says yes.
	Sandbox bool
}

// RuleReadOnlyCommand is the rule of a command allowed because it was
// judged read-only.
const RuleReadOnlyCommand = "read-only command"

// SandboxPolicy is what the engine knows of the OS sandbox.
type SandboxPolicy struct {
	// Available says commands can be confined.
	Available bool
	// AllowUnsandboxed (sandbox.allowUnsandboxed) lets plan mode and
	// read-only agents run commands judged read-only when no sandbox is
	// available, with the command check as the only wall. Without it they
	// run no commands at all then.
	AllowUnsandboxed bool
	// ClassifierOff is a test switch (PONDER_TEST_CLASSIFIER=off): every
	// command counts as read-only, so that tests can prove the sandbox
	// alone holds. It is honoured only while a sandbox is available.
	ClassifierOff bool
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
	sandbox   SandboxPolicy
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
	return &Engine{allow: allow, ask: ask, deny: deny, match: matcher{root: root, home: home}, canonRoot: Canonical(root)}, nil
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
	e.mu.Unlock()
	return nil
}

// SetSandbox tells the engine about the OS sandbox.
func (e *Engine) SetSandbox(p SandboxPolicy) {
	e.mu.Lock()
	e.sandbox = p
	e.mu.Unlock()
}

// Decide is the one place where ponder decides whether a tool call runs,
// and whether a command runs inside the OS sandbox.
// The order is: tools the agent may not use; deny rules; the hard limits
// of plan mode and read-only agents (which no allow rule can lift); ask
// rules; allow rules; and last the mode's own default.
func (e *Engine) Decide(c Context, a Access) Decision {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.confine(c, a, e.decide(c, a))
}

// confine decides whether an exec that may run must run in the sandbox,
// and refuses it where it must but cannot.
func (e *Engine) confine(c Context, a Access, d Decision) Decision {
	if a.Kind != KindExec || d.Behavior == Deny {
		return d
	}
	if c.Mode == ModePlan || c.ReadOnlyAgent {
		switch {
		case e.sandbox.Available:
			d.Sandbox = true
		case !e.sandbox.AllowUnsandboxed:
			limit, who := "plan mode", "plan mode"
			if c.ReadOnlyAgent {
				limit, who = "read-only agent", "a read-only agent"
			}
			return Decision{Behavior: Deny, Rule: limit + " without a sandbox", Reason: "No OS sandbox is available here, so " + who +
				" runs no shell commands: without one, a command misjudged as read-only could change files. " +
				"Use Read, Grep, Glob and LS instead. (The user can set sandbox.allowUnsandboxed: true in their settings to run read-only commands anyway.)"}
		}
		return d
	}
	d.Sandbox = d.Rule == RuleReadOnlyCommand && e.sandbox.Available
	return d
}

// decide is Decide without the sandbox.
func (e *Engine) decide(c Context, a Access) Decision {
	if slices.Contains(c.DeniedTools, a.Tool) {
		who := "this agent"
		if c.AgentType != "" {
			who = "the " + c.AgentType + " agent"
		}
		return Decision{Behavior: Deny, Rule: "agent tools", Reason: fmt.Sprintf("%s may not use %s.", who, a.Tool)}
	}

	var cmds []shellclass.Command
	var class shellclass.Result
	if a.Kind == KindExec {
		class = shellclass.Classify(a.Command)
		cmds = class.Commands
		if e.sandbox.ClassifierOff && e.sandbox.Available {
			class.ReadOnly = true
		}
	}
	// Each path is resolved once per decision, for the rules (which see
	// both forms), the plan-file check and the accept-edits check.
	canon := canonicalAll(a.Paths)
	it := items{paths: bothForms(a.Paths, canon), cmds: cmds}
	if r, ok := e.match.anyCovers(e.deny, a, it); ok {
		return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf("Denied by the permission rule %s.", r.Text)}
	}

	if c.Mode == ModePlan || c.ReadOnlyAgent {
		if d, decided := readOnlyLimit(c, a, canon, class); decided {
			return d
		}
	}

	if r, ok := e.match.anyCovers(e.ask, a, it); ok {
		return Decision{Behavior: Ask, Rule: "ask rule " + r.Text, Reason: fmt.Sprintf("The permission rule %s asks for confirmation.", r.Text)}
	}
	if r, ok := e.match.allCovered(e.allow, a, it); ok {
		return Decision{Behavior: Allow, Rule: "allow rule " + r.Text, Reason: "Allowed by the permission rule " + r.Text + "."}
	}
	return e.modeDefault(c, a, canon, class)
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
		if class.ReadOnly {
			return Decision{Behavior: Allow, Rule: RuleReadOnlyCommand, Reason: "The command only reads."}
		}
		return Decision{Behavior: Ask, Rule: "mode", Reason: "The command may change the system: " + class.Reason + "."}
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
