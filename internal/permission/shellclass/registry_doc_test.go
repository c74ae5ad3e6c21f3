package shellclass

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// docFile is the user documentation whose list of programs is rendered
// from the registry, between docBegin and docEnd.
const (
	docFile  = "../../../docs/permissions.md"
	docBegin = "<!-- programs: generated from internal/permission/shellclass by go generate; do not edit -->"
	docEnd   = "<!-- programs: end -->"
)

func codeList(names []string) string {
	if len(names) == 0 {
		return "—"
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ")
}

// escapeOptions lists the options of one escape spec as a user types
// them.
func escapeOptions(s escapeSpec) (writes, runs []string) {
	dash := "--"
	if s.goStyle || s.single {
		dash = "-"
	}
	for _, o := range append(append([]string{}, s.writeLong...), s.writeFlags...) {
		writes = append(writes, dash+o)
	}
	for _, c := range s.writeShort + s.writeFlagShort {
		writes = append(writes, "-"+string(c))
	}
	for _, o := range s.runLong {
		runs = append(runs, dash+o)
	}
	for _, c := range s.runShort {
		runs = append(runs, "-"+string(c))
	}
	return writes, runs
}

// renderProgramsDoc renders what the registry knows, for users.
func renderProgramsDoc() string {
	var b strings.Builder
	b.WriteString(docBegin + "\n\n")
	b.WriteString("| Family | Only read | Read-only when their words pass checks | Only their version | Never read-only |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, f := range families() {
		var reads, checked, version, never []string
		for name := range f.programs {
			p := registry[name]
			switch {
			case p.reads:
				reads = append(reads, name)
			case p.check != nil:
				checked = append(checked, name)
			case p.version != nil && p.wrapper == nil:
				version = append(version, name)
			default:
				never = append(never, name)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", f.title, codeList(reads), codeList(checked), codeList(version), codeList(never))
	}
	b.WriteString("\nOptions that make a command write a file or run a program, whatever else it is given (each needs its own yes; an abbreviation counts where the program accepts one):\n\n")
	b.WriteString("| Command | Writes a file | Runs a program |\n|---|---|---|\n")
	rows := map[string][2][]string{}
	for _, name := range registeredNames() {
		p := registry[name]
		add := func(cmd string, writes, runs []string) {
			if len(writes)+len(runs) == 0 {
				return
			}
			r := rows[cmd]
			r[0], r[1] = append(r[0], writes...), append(r[1], runs...)
			rows[cmd] = r
		}
		if p.escapes != nil {
			w, r := escapeOptions(*p.escapes)
			add(name, w, r)
		}
		for key, s := range p.subEscapes {
			w, r := escapeOptions(s)
			add(key, w, r)
		}
		add(name, nil, p.commandOptions)
		if p.moreEscapes != nil {
			add(name, []string{"its second operand"}, nil)
		}
	}
	cmds := make([]string, 0, len(rows))
	for c := range rows {
		cmds = append(cmds, c)
	}
	sort.Strings(cmds)
	for _, c := range cmds {
		r := rows[c]
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c, codeList(dedupe(r[0])), codeList(dedupe(r[1])))
	}
	b.WriteString("\n" + docEnd)
	return b.String()
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// TestProgramsDoc fails when docs/permissions.md's list of programs and
// the registry disagree; go generate (SHELLCLASS_DOC=update) rewrites it.
func TestProgramsDoc(t *testing.T) {
	data, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start, end := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	if start < 0 || end < start {
		t.Fatalf("%s has no generated list of programs (%q ... %q)", docFile, docBegin, docEnd)
	}
	want := renderProgramsDoc()
	if doc[start:end+len(docEnd)] == want {
		return
	}
	if os.Getenv("SHELLCLASS_DOC") != "update" {
		t.Fatalf("%s's list of programs differs from the registry; run go generate ./internal/permission/shellclass", docFile)
	}
	doc = doc[:start] + want + doc[end+len(docEnd):]
	tmp := docFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, docFile); err != nil {
		t.Fatal(err)
	}
}
