package reviewpage

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/ponder-agent/ponder/event"
)

//go:embed page.html
var pageText string

// pageTmpl is the page; html/template escapes everything the plan brings.
var pageTmpl = template.Must(template.New("page").Parse(pageText))

// md renders a plan's markdown. Raw HTML in a plan is not passed through
// (goldmark leaves it out unless told otherwise), nor are links to
// dangerous schemes: a plan is the model's text, and the page must not
// run what it says.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// pageView is what the page shows.
type pageView struct {
	Nonce   string
	Version int
	// Open is false when no plan waits for an answer.
	Open        bool
	ID          string
	PlanFile    string
	Rendered    template.HTML
	Lines       []planLine
	Options     []event.Option
	Models      []string
	Permissions []event.PlanPermission
	Files       []string
	Revised     bool
}

// planLine is one numbered line of the plan's text.
type planLine struct {
	N       int
	Text    string
	Changed bool
}

// view builds the page's view of q (nil: none open).
func view(q *event.Question, version int, nonce string) pageView {
	v := pageView{Nonce: nonce, Version: version}
	if q == nil {
		return v
	}
	v.Open, v.ID, v.PlanFile = true, q.ID, q.PlanFile
	v.Rendered = renderMarkdown(q.Plan)
	for i, l := range strings.Split(strings.TrimRight(q.Plan, "\n"), "\n") {
		v.Lines = append(v.Lines, planLine{N: i + 1, Text: l, Changed: slices.Contains(q.ChangedLines, i+1)})
	}
	for _, o := range q.Options {
		if o.ID != event.OptionReject {
			v.Options = append(v.Options, o)
		}
	}
	v.Models = q.Models
	v.Permissions = q.Permissions
	v.Files = namedFiles(q.Plan)
	v.Revised = q.PreviousPlan != ""
	return v
}

// renderMarkdown is the plan as HTML.
func renderMarkdown(plan string) template.HTML {
	var b bytes.Buffer
	if err := md.Convert([]byte(plan), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(plan) + "</pre>")
	}
	// goldmark escapes what it is given and drops raw HTML: its output
	// is safe to embed.
	return template.HTML(b.String()) //nolint:gosec
}

// codeSpan finds `spans` in a plan; pathLike keeps those that look like
// file paths.
var (
	codeSpan = regexp.MustCompile("`([^`\\s]+)`")
	pathLike = regexp.MustCompile(`^[\w.\-/]*[\w\-]\.[A-Za-z0-9]{1,8}$|^[\w.\-]+/[\w.\-/]+$`)
)

// namedFiles lists the file paths a plan names in code spans, in order,
// once each.
func namedFiles(plan string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(plan, -1) {
		p := m[1]
		if pathLike.MatchString(p) && !strings.Contains(p, "://") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// render writes the page.
func render(w io.Writer, v pageView) error { return pageTmpl.Execute(w, v) }
