package planmode

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Outline is what ponder reads out of an approved plan: its title, the
// steps of its implementation section and the files it names. The plan
// prompt asks for a shape that makes these easy to find (a numbered
// implementation section and a "Files" list), but a plan is the model's
// own text: anything that does not follow the shape yields less, never an
// error.
type Outline struct {
	Title string `json:"title,omitempty"`
	// Steps are the items of the implementation section, in order.
	Steps []string `json:"steps,omitempty"`
	// Files are the files the plan names (its Files list, and paths in
	// backquotes in its steps), as written: relative to the project or
	// absolute. Dirs are directories the plan names as such (with a
	// trailing slash); new files under them belong to the plan.
	Files []string `json:"files,omitempty"`
	Dirs  []string `json:"dirs,omitempty"`
}

// MaxSteps bounds the steps read out of one plan; a longer list is cut.
const MaxSteps = 50

var (
	headingRe  = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	numberedRe = regexp.MustCompile(`^(\s*)(\d{1,3})[.)]\s+(.+)$`)
	bulletRe   = regexp.MustCompile(`^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?(.+)$`)
	codeRe     = regexp.MustCompile("`([^`\n]+)`")
)

// ParseOutline reads the outline of a plan. The implementation section is
// the first heading that speaks of implementation or steps; its top-level
// numbered items (or, failing those, its top-level bullets) are the steps.
// A plan without such a section gives the first numbered list of the
// document. The Files section is the first heading that starts with
// "Files" (or "Files to change", "Critical files"...); each of its items
// names a path, in backquotes or as its first word.
func ParseOutline(plan string) Outline {
	var o Outline
	lines := strings.Split(strings.ReplaceAll(plan, "\r\n", "\n"), "\n")
	type section struct {
		title string
		lines []string
	}
	var sections []section
	cur := section{}
	fence := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := headingRe.FindStringSubmatch(l); m != nil {
			if o.Title == "" && m[1] == "#" {
				o.Title = strings.TrimSpace(m[2])
			}
			sections = append(sections, cur)
			cur = section{title: strings.ToLower(m[2])}
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	sections = append(sections, cur)

	var stepLines, fileLines []string
	foundSteps, foundFiles := false, false
	for _, s := range sections {
		if !foundSteps && (strings.Contains(s.title, "implementation") || strings.Contains(s.title, "steps")) {
			stepLines, foundSteps = s.lines, true
		}
		if !foundFiles && isFilesHeading(s.title) {
			fileLines, foundFiles = s.lines, true
		}
	}
	if foundSteps {
		o.Steps = listItems(stepLines, numberedRe)
		if len(o.Steps) == 0 {
			o.Steps = listItems(stepLines, bulletRe)
		}
	} else {
		for _, s := range sections {
			if isFilesHeading(s.title) {
				continue
			}
			if o.Steps = listItems(s.lines, numberedRe); len(o.Steps) > 0 {
				break
			}
		}
	}
	if len(o.Steps) > MaxSteps {
		o.Steps = o.Steps[:MaxSteps]
	}
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimSpace(p)
		if !looksLikePath(p) || seen[p] {
			return
		}
		seen[p] = true
		if strings.HasSuffix(p, "/") {
			o.Dirs = append(o.Dirs, p)
		} else {
			o.Files = append(o.Files, p)
		}
	}
	for _, item := range append(listItems(fileLines, numberedRe), listItems(fileLines, bulletRe)...) {
		if m := codeRe.FindStringSubmatch(item); m != nil {
			add(m[1])
		} else if f := strings.Fields(item); len(f) > 0 {
			add(strings.Trim(f[0], "*:,;"))
		}
	}
	for _, step := range o.Steps {
		for _, m := range codeRe.FindAllStringSubmatch(step, -1) {
			add(m[1])
		}
	}
	return o
}

// isFilesHeading says a heading introduces the plan's list of files.
func isFilesHeading(title string) bool {
	t := strings.TrimSpace(title)
	return strings.HasPrefix(t, "files") || strings.HasPrefix(t, "critical files") || strings.HasPrefix(t, "affected files")
}

// listItems returns the top-level items of the lines that match re, each
// with its continuation lines joined.
func listItems(lines []string, re *regexp.Regexp) []string {
	var items []string
	indent := -1
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if indent < 0 {
			indent = len(m[1])
		}
		if len(m[1]) != indent {
			continue
		}
		text := strings.TrimSpace(m[len(m)-1])
		if text != "" {
			items = append(items, text)
		}
	}
	return items
}

// looksLikePath says text could name a file or directory: one word with
// a slash or a dot in it, no wildcard, no scheme, no way up.
// fileExt is a short extension of lower-case letters and digits at the
// end of a name.
var fileExt = regexp.MustCompile(`\.[a-z0-9]{1,10}$`)

func looksLikePath(p string) bool {
	if p == "" || len(p) > 300 || strings.ContainsAny(p, " \t*?[]{}<>|;&$\"'") || strings.Contains(p, "://") {
		return false
	}
	if !strings.ContainsAny(p, "/.") || p == "." || p == "/" || strings.ContainsAny(p, "()") {
		return false
	}
	// A name without a directory is a file when it ends in a short,
	// lower-case extension (main.go, README.md), not a qualified
	// identifier such as strings.ToUpper or fmt.Println.
	if !strings.Contains(p, "/") && !fileExt.MatchString(p) {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			return false
		}
	}
	return true
}
