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
	// SuggestModes are the modes the suggested rule is for (see
	// Engine.AddAllowIn); none means every mode.
	SuggestModes []Mode
	// Sandbox says the command must run inside the OS sandbox: every
	// command in plan mode and in read-only agents, and elsewhere every
	// line judged read-only, whatever let it run (the mode, an allow rule,
	// a yes, bypass mode). Only a line that is not read-only runs
	// unconfined, once the user or an allow rule approved it or in bypass
	// mode. For an Ask it says what applies once the user says yes.
	Sandbox bool
	// Ports are, for a confined command that fetches from the network,
	// the TCP ports of those fetches (443 for an https address); for an
	// Ask, once the user says yes. A confined command may connect to these
	// ports and no others.
	Ports []uint16
	// Lookup says one of those fetches names a host that must be looked
	// up (not an IP address or localhost), so the command may also send
	// DNS queries.
	Lookup bool
	// Readable says, for an Ask, that the rules let the caller read every
	// file the call touches without asking: a preview of their content
	// (an edit's diff) then reveals nothing a Read could not. It is
	// decided with the call, so the question needs no second decision.
	Readable bool
	// Workspace says a confined command may write its workspace (the
	// project, caches of ponder's own) but nothing that decides what runs
	// later; without it a confined command writes nothing. Set in default
	// and accept-edits mode for every command not judged read-only.
	Workspace bool
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
	// Workspace says commands can be confined to the workspace policy
	// (the project writable, what decides what runs read-only). Without
	// it, commands not judged read-only run unconfined once allowed.
	Workspace bool
	// Required (sandbox.required) refuses to run any command outside the
	// sandbox: no escalation, and in bypass mode the workspace policy.
	Required bool
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
	// Subagent says the caller is a subagent, not the main conversation;
	// subagents launch no agents of their own.
	Subagent bool
	// DeniedTools are tools the calling agent may not use at all.
	DeniedTools []string
	// Offered are the tools offered to the caller here and now (see
	// Engine.Offers); a call of any other tool is refused. Nil offers
	// every tool, for callers that judge accesses outside an agent.
	Offered []string
	// Hook is what the session's PreToolUse hooks said about this call.
	Hook HookRuling
	// Scope, when set, is the approved plan's fence: accept-edits lets
	// through unasked only the edits it holds (see Scope).
	Scope *Scope
}

// Engine holds the rules of a session and makes every permission decision.
// It is safe for concurrent use.
type Engine struct {
	mu    sync.RWMutex
	allow []Rule
	ask   []Rule
	deny  []Rule
	// modeAllow are allow rules that count in some modes only (see
	// rule_modes.go).
	modeAllow []Rule
	match     matcher
	// canonRoot is the project root with symlinks resolved, once.
	canonRoot string
	// specs are the Bash rules' specifiers split into words, once.
	specs map[string]commandSpec
	// warnings are rules that parse but look mistaken.
	warnings []string
	sandbox  SandboxPolicy
	// hidden is the last search for the paths deny rules cover.
	hidden hiddenCache
	// settingsFiles are ponder's settings files outside the project (the
	// user's), canonical; see SetSettingsFiles.
	settingsFiles []string
	// startAllow is how many allow rules the engine started with; those
	// after were added while the session ran (AddAllow).
	startAllow int
	// workspace are directories outside the project the user added
	// (--add-dir), each as given and canonical; edits there count as
	// edits inside the project.
	addedDirs [][2]string
	// unsandboxed are the session's rules for commands that may run
	// outside the sandbox without asking again (see AddUnsandboxed).
	unsandboxed []Rule
}

// Rules are the rule texts an engine starts with: those of the command
// line, and those of each settings file.
type Rules struct {
	Allow, Ask, Deny []string
	Sets             []RuleSet
	// Tools are the kinds the session's tools declare, by name (see
	// kinds.go): a rule naming a tool that reads files covers every such
	// tool, as a rule for Read does. Without them only the words of the
	// rule language (Read, Edit, Bash, ...) stand for a kind.
	Tools map[string]Kind
}

// NewEngine parses and compiles the rules. Root is the project root,
// against which relative path patterns resolve; home is the user's home
// directory. A rule that can never match what it seems to is an error
// naming its file; one that parses but looks mistaken is a warning (see
// Warnings).
func NewEngine(r Rules, root, home string) (*Engine, error) {
	e := &Engine{match: matcher{root: root, home: home, tools: r.Tools}, canonRoot: Canonical(root), specs: map[string]commandSpec{}}
	sets := append([]RuleSet{{Source: SourceSession, Allow: r.Allow, Ask: r.Ask, Deny: r.Deny}}, r.Sets...)
	for _, set := range sets {
		m := e.match
		if set.Root != "" {
			m.root = set.Root
		}
		if len(set.Modes) > 0 {
			if err := e.addModeAllow(m, set); err != nil {
				return nil, err
			}
			continue
		}
		for _, list := range []struct {
			dst   *[]Rule
			texts []string
			name  string
		}{{&e.deny, set.Deny, "deny"}, {&e.ask, set.Ask, "ask"}, {&e.allow, set.Allow, "allow"}} {
			for _, text := range list.texts {
				for _, part := range SplitRuleList(text) {
					rule, err := parseWith(m, part, set.Source, set.File)
					if err != nil {
						return nil, fmt.Errorf("%s: permissions.%s: %w", where(set.Source, set.File), list.name, err)
					}
					if w := m.lint(rule, list.name); w != "" {
						e.warnings = append(e.warnings, fmt.Sprintf("%s: permissions.%s: %s", rule.origin(), list.name, w))
					}
					*list.dst = append(*list.dst, rule)
					e.addSpec(rule)
				}
			}
		}
	}
	e.startAllow = len(e.allow)
	return e, nil
}

// parse parses and compiles one rule against the project root.
func (e *Engine) parse(text string, src Source, file string) (Rule, error) {
	return parseWith(e.match, text, src, file)
}

// parseWith parses one rule and compiles it with m's root and home.
func parseWith(m matcher, text string, src Source, file string) (Rule, error) {
	r, err := ParseRule(text)
	if err != nil {
		return Rule{}, err
	}
	if err := m.compile(&r, src, file); err != nil {
		return Rule{}, fmt.Errorf("permission rule %q: %v", r.Text, err)
	}
	return r, nil
}

// Warnings lists the rules that parse but look mistaken (an unknown tool,
// a pattern that names a project path while looking absolute), with where
// each was written.
func (e *Engine) Warnings() []string { return e.warnings }

// AddAllow adds an allow rule for the rest of the session ("yes, and don't
// ask again").
func (e *Engine) AddAllow(text string) error {
	r, err := e.parse(text, SourceSession, "")
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.allow = append(e.allow, r)
	e.addSpec(r)
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
// The order is: tools the caller may not use at all (outside its agent's
// tools, denied outright by a rule, not offered to it); ponder's own
// secrets; deny rules; the hard limits of plan mode and read-only agents
// (which no allow rule can lift); ask rules; allow rules; and last the
// mode's own default.
func (e *Engine) Decide(c Context, a Access) Decision {
	e.mu.RLock()
	defer e.mu.RUnlock()
	// Each path is resolved once per decision, for the rules (which see
	// both forms), the plan-file check and the accept-edits check; a
	// shell line is parsed once, for every check and for confinement.
	class := e.classify(a)
	canon := a.canonical()
	d := e.decide(c, a, canon, pathHints{}, class)
	planConfine := e.planMayConfine(c, a, class)
	if planConfine {
		d = planConfined(d, a, class, c.PlanFile)
	}
	d = e.confine(c, a, class, d)
	if planConfine {
		d = e.planNetwork(c, class, d)
	}
	if d.Behavior == Ask && len(a.Paths) > 0 {
		read := Access{Tool: "Read", Kind: KindRead, Paths: a.Paths}
		d.Readable = e.decide(c, read, canon, pathHints{}, shellclass.Result{}).Behavior == Allow
	}
	return d
}

// classify parses the shell line of an exec; other calls have none.
func (e *Engine) classify(a Access) shellclass.Result {
	if a.Kind != KindExec {
		return shellclass.Result{}
	}
	class := shellclass.Classify(a.Command)
	if e.sandbox.ClassifierOff && e.sandbox.Available {
		// The test switch: the kernel alone must hold, so the command
		// check lets everything through to it.
		class = shellclass.Result{ReadOnly: true, Commands: class.Commands, Fetches: class.Fetches}
	}
	return class
}

// confine decides whether an exec that may run must run in the sandbox,
// and refuses it where it must but cannot. Every command of plan mode and
// read-only agents is confined; elsewhere every line judged read-only is,
// in every mode and whatever rule or answer lets it run: a rule or a yes
// for "git status" is meant for a reader, and the sandbox keeps it one
// when the repository's configuration would make git run a program. Only
// a line that is not read-only runs unconfined, once approved (a yes, an
// allow rule) or in bypass mode.
func (e *Engine) confine(c Context, a Access, class shellclass.Result, d Decision) Decision {
	if a.Kind != KindExec || d.Behavior == Deny {
		return d
	}
	if c.Mode == ModePlan || c.ReadOnlyAgent {
		if a.Unsandboxed {
			return Decision{Behavior: Deny, Rule: "plan mode", Reason: "Nothing runs outside the OS sandbox while planning or in a read-only agent."}
		}
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
		return withFetchPorts(d, class)
	}
	if a.Unsandboxed {
		return e.escalate(c, class, d)
	}
	d.Sandbox = class.ReadOnly && e.sandbox.Available
	if d.Sandbox && d.Rule != RuleReadOnlyCommand && talksToDaemon(class) {
		// docker ps, kubectl get, systemctl status only work by asking a
		// service over a socket, which the sandbox closes; approved (an
		// allow rule, a yes, bypass mode) they run as before. What such
		// a client runs is the service's configuration, not the
		// repository's.
		d.Sandbox = false
	}
	if !class.ReadOnly {
		d = e.workspace(c, d)
	}
	return withFetchPorts(d, class)
}

// talksToDaemon reports whether a line runs a program that reads by
// asking a service over a socket (shellclass.ServiceClient).
func talksToDaemon(class shellclass.Result) bool {
	for _, c := range class.Commands {
		if len(c.Words) > 0 && c.Words[0].Lit && shellclass.ServiceClient(shellclass.Program(c.Words[0].Text)) {
			return true
		}
	}
	return false
}

// pathHints let a caller that walks a tree skip work Decide would do for
// a single path: whether the path is a directory, and that every directory
// above it has passed already.
type pathHints struct {
	isDir    func() bool
	leafOnly bool
}

// decide is Decide with the canonical paths and the parsed shell line
// given; the caller holds e.mu.
func (e *Engine) decide(c Context, a Access, canon []string, h pathHints, class shellclass.Result) Decision {
	if d, ok := e.unusable(c, a); ok {
		return d
	}
	if d, ok := guardSecrets(a, canon); ok {
		return d
	}
	if a.Kind == KindNetwork {
		// Rules compare parsed addresses; one that cannot be parsed in
		// a single way could slip past a deny rule.
		if _, err := normalizeURL(a.Target); err != nil {
			return Decision{Behavior: Deny, Rule: "url", Reason: fmt.Sprintf("%s cannot be checked against the permission rules: %v.", a.Target, err)}
		}
	}

	if a.Kind == KindExec {
		if d, ok := fetchDenied(c, class); ok {
			return d
		}
	}
	it := items{paths: bothForms(a.Paths, canon), hints: h}
	if a.Kind == KindExec {
		if d, ok := e.execDenied(a, class); ok {
			return d
		}
		if d, ok := e.execFiles(a, class, true); ok {
			return d
		}
		if d, ok := e.storedDenied(a, class); ok {
			return d
		}
	} else if r, ok := e.match.anyCovers(e.deny, a, it); ok {
		return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf("Denied by the permission rule %s (%s).", r.Text, r.origin())}
	} else if (a.Kind == KindRead || a.Kind == KindWrite) && !h.leafOnly {
		// Another name of a denied file (a hard link) is that file.
		for _, p := range a.Paths {
			if e.deniedLink(p, a.Kind == KindRead) {
				return hardLinkDenied(p)
			}
		}
	}

	if c.Hook.Behavior == Deny {
		return hookDecision(c.Hook)
	}
	if c.Mode == ModePlan || c.ReadOnlyAgent {
		// A line plan mode would refuse goes on to the rules when it can
		// run confined instead (planask.go); Decide makes their answer
		// plan mode's.
		if d, decided := readOnlyLimit(c, a, canon, class); decided && !e.planMayConfine(c, a, class) {
			return d
		}
	}
	if c.Hook.Behavior == Ask {
		return e.suggest(hookDecision(c.Hook), a, class)
	}

	if a.Kind == KindExec {
		if d, ok := e.execAsked(a, class); ok {
			return e.suggest(d, a, class)
		}
		// A line plan mode's limit let through to run confined is
		// allowed unasked by a rule for plan mode alone, never by one
		// written for modes where the command does its job.
		planConfine := e.planMayConfine(c, a, class)
		allow := e.allowIn(c.Mode)
		if planConfine {
			allow = e.scopedTo(ModePlan)
		}
		if c.Hook.Behavior == Allow && !planConfine && e.hookMayAllow(a, canon, class) {
			return hookDecision(c.Hook)
		}
		if d, ok := e.execAllowed(a, class, allow); ok {
			if why := e.writesWhatRuns(a, canon, class); why != "" && c.Mode != ModeBypass {
				// A rule for a command is no yes for every file it may
				// write: one that decides what runs needs its own.
				return Decision{Behavior: Ask, Rule: "protected file", Reason: "An allow rule for the command does not cover what it writes here, which needs a yes of its own: " + why}
			}
			return d
		}
	} else {
		if r, ok := e.match.anyCovers(e.ask, a, it); ok {
			d := Decision{Behavior: Ask, Rule: "ask rule " + r.Text, Reason: fmt.Sprintf("The permission rule %s (%s) asks for confirmation.", r.Text, r.origin())}
			return e.suggest(d, a, class)
		}
		if c.Hook.Behavior == Allow && e.hookMayAllow(a, canon, class) {
			return hookDecision(c.Hook)
		}
		if r, ok := e.match.allCovered(e.allowIn(c.Mode), a, it); ok {
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
		if c.Mode == ModeAcceptEdits && e.inWorkspace(a.Paths, canon) {
			if why := e.configuresExecution(a.Paths, canon); why != "" {
				return Decision{Behavior: Ask, Rule: "protected file", Reason: why}
			}
			if c.Scope != nil {
				if out := c.Scope.outside(a.Paths, canon); len(out) > 0 {
					return Decision{Behavior: Ask, Rule: RuleScope, Reason: scopeReason(out)}
				}
			}
			return Decision{Behavior: Allow, Rule: "mode", Reason: "Edits inside the project are accepted."}
		}
		if c.Scope != nil {
			if out := c.Scope.outside(a.Paths, canon); len(out) > 0 {
				return Decision{Behavior: Ask, Rule: RuleScope, Reason: scopeReason(out)}
			}
		}
		return Decision{Behavior: Ask, Rule: "mode", Reason: "Changing " + strings.Join(a.Paths, ", ") + " needs approval."}
	case KindExternal:
		if a.ReadOnly {
			return Decision{Behavior: Allow, Rule: "mode", Reason: "The tool is marked read-only."}
		}
	}
	return Decision{Behavior: Ask, Rule: "mode", Reason: a.Tool + " needs approval."}
}

// canonical is the canonical form of every path of a: the one the tool
// resolved (Canon) when it gave one per path, else resolved now.
func (a Access) canonical() []string {
	if len(a.Canon) == len(a.Paths) && len(a.Paths) > 0 {
		return slices.Clone(a.Canon)
	}
	return canonicalAll(a.Paths)
}

func canonicalAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = Canonical(p)
	}
	return out
}

// AddWorkspaceDir adds a directory outside the project whose files count
// as the project's for the modes: accept-edits accepts edits there (files
// that decide what runs aside) as it does inside the project. Rules still
// decide first. dir must be absolute.
func (e *Engine) AddWorkspaceDir(dir string) {
	e.mu.Lock()
	e.addedDirs = append(e.addedDirs, [2]string{filepath.Clean(dir), Canonical(dir)})
	e.mu.Unlock()
}

// WorkspaceDirs are the project root and the directories added to it,
// canonical: the set a workspace sandbox may let commands write.
func (e *Engine) WorkspaceDirs() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := []string{e.canonRoot}
	for _, w := range e.addedDirs {
		out = append(out, w[1])
	}
	return out
}

// inWorkspace reports whether every path (given with its canonical form)
// lies inside the project or inside one directory added to it, both as
// named and once links are resolved; the caller holds e.mu.
func (e *Engine) inWorkspace(paths, canon []string) bool {
	if len(paths) == 0 || len(paths) != len(canon) {
		return false
	}
	for i, p := range paths {
		ok := allInside([]string{p}, e.match.root) && allInside([]string{canon[i]}, e.canonRoot)
		for _, w := range e.addedDirs {
			ok = ok || allInside([]string{p}, w[0]) && allInside([]string{canon[i]}, w[1])
		}
		if !ok {
			return false
		}
	}
	return true
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
