package permission

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// This file holds the rule checks for shell lines. A line is judged by
// what its parse shows: every simple command (wrappers and what they run
// included), the files its redirections write, the environment changes it
// makes, the network addresses it fetches, and whether it may run commands
// the parse cannot show (Result.Opaque).

// webFetch is the access a fetch made by a shell command stands for, so
// that WebFetch rules apply to it.
var webFetch = Access{Tool: "WebFetch", Kind: KindNetwork}

// execDenied applies deny rules to a shell line: a Bash deny rule that
// surely matches one of its commands, or a WebFetch deny rule that
// matches one of its fetches.
func (e *Engine) execDenied(a Access, class shellclass.Result) (Decision, bool) {
	for _, r := range e.deny {
		if !applies(r, a) {
			continue
		}
		if anyCommand(r) {
			return denyDecision(r, ""), true
		}
		spec := e.spec(r)
		for _, c := range class.Commands {
			if restrictMatches(spec, c) == matches {
				return denyDecision(r, c.String()), true
			}
		}
	}
	for _, f := range class.Fetches {
		for _, r := range e.deny {
			if !applies(r, webFetch) {
				continue
			}
			// An address the command names is reached first even when
			// options may send the request on elsewhere.
			if r.Specifier == "" || f.URL != "" && networkMatches(r.Specifier, f.URL) || f.Written != "" && networkMatches(r.Specifier, f.Written) {
				return denyDecision(r, fetchText(f)), true
			}
		}
	}
	return Decision{}, false
}

// addSpec splits a Bash rule's specifier into words for later matching.
// The caller holds the write lock, or owns e.
func (e *Engine) addSpec(r Rule) {
	if r.kind() == KindExec && !anyCommand(r) {
		e.specs[r.Specifier] = parseCommandSpec(r.Specifier)
	}
}

// spec returns the words of a Bash rule's specifier.
func (e *Engine) spec(r Rule) commandSpec {
	if s, ok := e.specs[r.Specifier]; ok {
		return s
	}
	return parseCommandSpec(r.Specifier)
}

// anyCommand reports whether a Bash rule names no particular command:
// "Bash", "Bash(*)" or "Bash(:*)".
func anyCommand(r Rule) bool {
	switch strings.TrimSpace(r.Specifier) {
	case "", "*", ":*":
		return true
	}
	return false
}

// fetchDenied returns the decision for a line that fetches from the
// network in an agent that may not use WebFetch.
func fetchDenied(c Context, class shellclass.Result) (Decision, bool) {
	if len(class.Fetches) == 0 || !slices.Contains(c.DeniedTools, "WebFetch") {
		return Decision{}, false
	}
	who := "this agent"
	if c.AgentType != "" {
		who = "the " + c.AgentType + " agent"
	}
	return Decision{Behavior: Deny, Rule: "agent tools", Reason: fmt.Sprintf(
		"%s may not use WebFetch, and the command fetches from the network (%s).", strings.ToUpper(who[:1])+who[1:], fetchText(class.Fetches[0]))}, true
}

func denyDecision(r Rule, what string) Decision {
	reason := fmt.Sprintf("Denied by the permission rule %s.", r.Text)
	if what != "" {
		reason = fmt.Sprintf("Denied by the permission rule %s (it forbids %s).", r.Text, what)
	}
	return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: reason}
}

// fetchText describes a fetch for messages.
func fetchText(f shellclass.Fetch) string {
	if f.URL == "" && f.Written != "" {
		return fmt.Sprintf("%s %s, which may connect elsewhere: %s", f.Program, f.Written, f.Why)
	}
	if f.URL == "" {
		return f.Program + " to an address only known at run time"
	}
	return f.Program + " " + f.URL
}

// execAsked applies what makes a shell line ask: a Bash ask rule that may
// match one of its commands, a Bash deny rule that may match one (a word
// only known at run time could make it the forbidden command), a line that
// may run commands its parse does not show where rules forbid or ask about
// commands or fetches, and a WebFetch ask rule for one of its fetches.
func (e *Engine) execAsked(a Access, class shellclass.Result) (Decision, bool) {
	for _, r := range e.ask {
		if !applies(r, a) {
			continue
		}
		if anyCommand(r) {
			return askDecision(r), true
		}
		spec := e.spec(r)
		for _, c := range class.Commands {
			if restrictMatches(spec, c) != noMatch {
				return askDecision(r), true
			}
		}
	}
	for _, r := range e.deny {
		if !applies(r, a) || anyCommand(r) {
			continue
		}
		spec := e.spec(r)
		for _, c := range class.Commands {
			if restrictMatches(spec, c) == mayMatch {
				return Decision{Behavior: Ask, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf(
					"The command %q may be one the permission rule %s forbids: part of it is only known when it runs.", c.String(), r.Text)}, true
			}
		}
	}
	if d, ok := e.unknownProgramAsks(a, class); ok {
		return d, true
	}
	if d, ok := e.execFiles(a, class, false); ok {
		return d, true
	}
	if class.Opaque != "" {
		if r, ok := e.firstRestriction(a); ok {
			return Decision{Behavior: Ask, Rule: r.kind + " rule " + r.Text, Reason: fmt.Sprintf(
				"The permission rule %s cannot be checked against this line, which may run commands it does not show: %s.", r.Text, class.Opaque)}, true
		}
	}
	for _, f := range class.Fetches {
		for _, rules := range [][]Rule{e.ask, e.deny} {
			for _, r := range rules {
				if !applies(r, webFetch) {
					continue
				}
				if r.Specifier == "" || f.URL == "" || networkMatches(r.Specifier, f.URL) {
					return Decision{Behavior: Ask, Rule: "rule " + r.Text, Reason: fmt.Sprintf(
						"The command fetches from the network (%s), and the permission rule %s asks about or forbids fetches.", fetchText(f), r.Text)}, true
				}
			}
		}
	}
	return Decision{}, false
}

// unknownProgramAsks applies deny and ask rules about commands to the
// programs the classifier does not know (Command.Unknown): such a program
// may run its words as a command, as valgrind, setarch, setpriv, perf,
// ip netns exec, a dynamic loader and countless others do. One that names
// a forbidden program among its words (or has a word only known at run
// time, which could be one), or that is itself named by a path (a script
// or binary that may run anything), may be running the forbidden command.
func (e *Engine) unknownProgramAsks(a Access, class shellclass.Result) (Decision, bool) {
	for _, set := range []struct {
		kind  string
		rules []Rule
	}{{"deny", e.deny}, {"ask", e.ask}} {
		for _, r := range set.rules {
			if !applies(r, a) || anyCommand(r) {
				continue
			}
			spec := e.spec(r)
			if len(spec.words) == 0 {
				continue
			}
			target := shellclass.BaseName(spec.words[0])
			for _, c := range class.Commands {
				if !c.Unknown || len(c.Words) == 0 {
					continue
				}
				if first := c.Words[0]; first.Lit && strings.Contains(first.Text, "/") {
					return Decision{Behavior: Ask, Rule: set.kind + " rule " + r.Text, Reason: fmt.Sprintf(
						"%q runs a program by path, which may run the command the permission rule %s is about.", c.String(), r.Text)}, true
				}
				for _, w := range c.Words[1:] {
					if !w.Lit {
						return Decision{Behavior: Ask, Rule: set.kind + " rule " + r.Text, Reason: fmt.Sprintf(
							"%q may run %s, which is only known when it runs and may be what the permission rule %s is about: ponder does not know what %s does with its arguments.",
							c.String(), w.Text, r.Text, shellclass.BaseName(c.Words[0].Text))}, true
					}
					if shellclass.BaseName(w.Text) == target {
						return Decision{Behavior: Ask, Rule: set.kind + " rule " + r.Text, Reason: fmt.Sprintf(
							"%q may run %s, which the permission rule %s is about: ponder does not know what %s does with its arguments.",
							c.String(), w.Text, r.Text, shellclass.BaseName(c.Words[0].Text))}, true
					}
				}
			}
		}
	}
	return Decision{}, false
}

func askDecision(r Rule) Decision {
	return Decision{Behavior: Ask, Rule: "ask rule " + r.Text, Reason: fmt.Sprintf("The permission rule %s asks for confirmation.", r.Text)}
}

// restriction is a rule that forbids or asks about some commands or
// fetches.
type restriction struct {
	Rule
	kind string
}

// firstRestriction returns a deny or ask rule about particular shell
// commands or web fetches, if there is one.
func (e *Engine) firstRestriction(a Access) (restriction, bool) {
	for _, set := range []struct {
		kind  string
		rules []Rule
	}{{"deny", e.deny}, {"ask", e.ask}} {
		for _, r := range set.rules {
			if applies(r, a) && !anyCommand(r) || applies(r, webFetch) {
				return restriction{r, set.kind}, true
			}
		}
	}
	return restriction{}, false
}

// execAllowed applies allow rules to a shell line. Every command must be
// allowed by a rule as written, or only read on its own (it would run
// unasked anyway, as "| tail -5" after an allowed command does). The line
// may not do more than run them: a redirection to a file, an environment
// change or commands the parse cannot show each need their own yes; and a
// fetch no WebFetch rule allows keeps every command to its rules.
func (e *Engine) execAllowed(a Access, class shellclass.Result, allow []Rule) (Decision, bool) {
	for _, r := range allow {
		if applies(r, a) && anyCommand(r) {
			return Decision{Behavior: Allow, Rule: "allow rule " + r.Text, Reason: "Allowed by the permission rule " + r.Text + "."}, true
		}
	}
	if len(class.Commands) == 0 || class.Opaque != "" || len(class.Writes) > 0 || len(class.Env) > 0 {
		return Decision{}, false
	}
	_, fetchesOK := fetchesAllowed(class, allow)
	var first Rule
	found := false
	for _, c := range class.Commands {
		r, ok := e.allowRuleFor(a, c, allow)
		switch {
		case ok:
			if !found {
				first, found = r, true
			}
		case c.ReadOnly && fetchesOK:
		default:
			return Decision{}, false
		}
	}
	if !found {
		return Decision{}, false
	}
	return Decision{Behavior: Allow, Rule: "allow rule " + first.Text, Reason: "Allowed by the permission rule " + first.Text + "."}, true
}

// allowRuleFor returns an allow rule that allows c as written.
func (e *Engine) allowRuleFor(a Access, c shellclass.Command, allow []Rule) (Rule, bool) {
	for _, r := range allow {
		if applies(r, a) && !anyCommand(r) && allowMatches(e.spec(r), c) {
			return r, true
		}
	}
	return Rule{}, false
}

// fetchesAllowed reports whether the WebFetch rules among allow cover
// every fetch of a line, and names the first one they do not.
func fetchesAllowed(class shellclass.Result, allow []Rule) (string, bool) {
	for _, f := range class.Fetches {
		covered := false
		for _, r := range allow {
			if applies(r, webFetch) && (r.Specifier == "" || f.URL != "" && networkMatches(r.Specifier, f.URL)) {
				covered = true
				break
			}
		}
		if !covered {
			return fetchText(f), false
		}
	}
	return "", true
}

// withFetchPorts adds to a confined shell line that may run (now, or once
// the user says yes) the ports its fetches connect to, and whether any of
// them must look its host up.
func withFetchPorts(d Decision, class shellclass.Result) Decision {
	if d.Behavior == Deny || !d.Sandbox {
		return d
	}
	for _, f := range class.Fetches {
		u := f.URL
		if u == "" {
			u = f.Written
		}
		if p := fetchPort(u); p != 0 && !slices.Contains(d.Ports, p) {
			d.Ports = append(d.Ports, p)
		}
		if needsLookup(u) {
			d.Lookup = true
		}
	}
	return d
}

// needsLookup reports whether fetching rawURL asks DNS for its host: not
// for an IP address in any form the rules accept, nor for localhost and
// its subdomains, which resolvers answer without asking anyone.
func needsLookup(rawURL string) bool {
	u, err := normalizeURL(rawURL)
	if err != nil {
		return true
	}
	h := strings.Trim(u.host, "[]")
	if net.ParseIP(h) != nil {
		return false
	}
	return h != "localhost" && !strings.HasSuffix(h, ".localhost")
}

// fetchPort is the TCP port a fetch of rawURL connects to, or 0.
func fetchPort(rawURL string) uint16 {
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return 0
		}
		return uint16(n)
	}
	switch u.Scheme {
	case "https", "wss":
		return 443
	case "http", "ws":
		return 80
	case "ssh":
		return 22
	case "git":
		return 9418
	case "ftp":
		return 21
	}
	return 0
}

// execDefault is what a mode does with a shell line no rule decided: a
// read-only line runs, unless it fetches from the network where no
// WebFetch rule allows it (a fetch carries data out in its address, so it
// asks as WebFetch does).
func (e *Engine) execDefault(class shellclass.Result) Decision {
	if !class.ReadOnly {
		return Decision{Behavior: Ask, Rule: "mode", Reason: "The command may change the system: " + class.Reason + "."}
	}
	if what, ok := fetchesAllowed(class, e.allow); !ok {
		return Decision{Behavior: Ask, Rule: "mode", Reason: "The command fetches from the network (" + what + "), and no WebFetch rule allows that address."}
	}
	return Decision{Behavior: Allow, Rule: "read-only command", Reason: "The command only reads."}
}
