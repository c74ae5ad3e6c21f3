package shellclass

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// registeredNames returns the registry's program names in order.
func registeredNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// escapeCases returns, for one escape spec, command lines that use each
// of its options, and whether the option writes (else it runs a program).
func escapeCases(prefix string, s escapeSpec) map[string]bool {
	dash := "--"
	if s.goStyle || s.single {
		dash = "-"
	}
	cases := map[string]bool{}
	for _, o := range s.writeLong {
		cases[prefix+" "+dash+o+" out.txt"] = true
	}
	for _, o := range s.writeFlags {
		cases[prefix+" "+dash+o] = true
	}
	for _, c := range s.writeShort + s.writeFlagShort {
		cases[prefix+" -"+string(c)+" out.txt"] = true
	}
	for _, o := range s.runLong {
		cases[prefix+" "+dash+o+" prog"] = false
	}
	for _, c := range s.runShort {
		cases[prefix+" -"+string(c)+" prog"] = false
	}
	return cases
}

// TestEveryRegisteredOptionIsExercised feeds every option the registry
// says writes a file, runs a program or fetches, and every program it
// says writes or runs, through Classify, and checks the verdict says so:
// a fact in the table that the walker ignores would be a hole.
func TestEveryRegisteredOptionIsExercised(t *testing.T) {
	checked := 0
	notReadOnly := func(line, what string) Result {
		t.Helper()
		checked++
		res := Classify(line)
		if res.ReadOnly {
			t.Errorf("%s: %q is read-only", what, line)
		}
		return res
	}
	opaque := func(line, what string) {
		t.Helper()
		if res := notReadOnly(line, what); res.Opaque == "" {
			t.Errorf("%s: %q is not opaque (%s)", what, line, res.Reason)
		}
	}
	for _, name := range registeredNames() {
		p := registry[name]
		var specs []map[string]bool
		if p.escapes != nil {
			specs = append(specs, escapeCases(name, *p.escapes))
		}
		for key, s := range p.subEscapes {
			_, sub, _ := strings.Cut(key, " ")
			specs = append(specs, escapeCases(name+" "+sub, s))
		}
		for _, cases := range specs {
			for line, writes := range cases {
				if !writes {
					opaque(line, "an option that runs a program")
					continue
				}
				if res := notReadOnly(line, "an option that writes"); len(res.Writes) == 0 {
					t.Errorf("an option that writes: %q lists no file written (%s)", line, res.Reason)
				}
			}
		}
		for _, o := range p.commandOptions {
			if o == "+" {
				opaque(name+" +cmd", "an option that runs a command")
				continue
			}
			opaque(name+" "+o+" 'id'", "an option that runs a command")
		}
		if p.setsRecipeVars {
			opaque(name+" SHELL=/tmp/x", "a variable a recipe runs")
		}
		if p.wrapper != nil {
			notReadOnly(name+" ls", "a wrapper")
		}
		if p.writes != "" {
			notReadOnly(name+" x", "a program that writes")
		}
		for _, why := range []string{p.hides, p.runsHidden, p.session} {
			if why != "" {
				opaque(name+" x", "a program that runs what the line does not show")
			}
		}
		if p.interpreter {
			opaque(name+" -c x", "an interpreter")
		}
		if p.fetch != nil {
			checked++
			// A program with subcommands fetches with one of them.
			lines := []string{name + " https://example.com/x"}
			for key := range p.subEscapes {
				_, sub, _ := strings.Cut(key, " ")
				lines = append(lines, name+" "+sub+" https://example.com/x")
			}
			if !slices.ContainsFunc(lines, func(l string) bool { return len(Classify(l).Fetches) > 0 }) {
				t.Errorf("a network client: %q records no fetch", lines[0])
			}
		}
		if p.reads {
			checked++
			if res := Classify(name + " f.txt"); !res.ReadOnly {
				t.Errorf("a program that only reads: %q is not read-only: %s", name+" f.txt", res.Reason)
			}
		}
		if p.check == nil && p.wrapper == nil && !p.reads {
			for _, v := range p.version {
				checked++
				if res := Classify(name + " " + v); !res.ReadOnly && !p.interpreter {
					t.Errorf("a version query: %q is not read-only: %s", name+" "+v, res.Reason)
				}
			}
		}
		if p.files.writes {
			checked++
			if res := Classify(name + " f.txt"); !slices.Contains(res.Files, FileUse{Path: "f.txt", Write: true}) {
				t.Errorf("a program that writes its operands: %q does not list f.txt as written", name+" f.txt")
			}
		}
		if p.files.reads && !p.files.patternFirst && p.files.use == nil {
			checked++
			if res := Classify(name + " f.txt"); !slices.Contains(res.Files, FileUse{Path: "f.txt"}) {
				t.Errorf("a program that reads its operands: %q does not list f.txt as read", name+" f.txt")
			}
		}
	}
	if checked < 600 {
		t.Errorf("only %d facts were exercised", checked)
	}
	t.Logf("%d facts of %d programs exercised", checked, len(registry))
}
