package reviewpage

import (
	_ "embed"
	"html/template"
	"io"

	"github.com/ponder-agent/ponder/event"
)

//go:embed export.html
var exportText string

// exportTmpl is the page of an exported plan.
var exportTmpl = template.Must(template.New("export").Parse(exportText))

// Export writes a self-contained page of a plan: rendered, with numbered
// lines a reader comments on, and a button that saves the comments as the
// JSON --plan-feedback reads. It needs no server and loads nothing from
// elsewhere.
func Export(w io.Writer, name, plan string) error {
	nonce, err := newNonce()
	if err != nil {
		return err
	}
	v := view(&event.Question{Kind: event.AskPlanExit, Plan: plan}, 0, nonce)
	return exportTmpl.Execute(w, struct {
		pageView
		Name string
	}{v, name})
}
