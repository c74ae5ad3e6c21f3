package team

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/planmode"
)

// TestApprovalOptionsComeFromPlanMode fails when the team protocol names a
// plan approval option itself instead of reading planmode's table.
func TestApprovalOptionsComeFromPlanMode(t *testing.T) {
	ids := planmode.OptionIDs(false)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fs := token.NewFileSet()
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, _ := strconv.Unquote(lit.Value); slices.Contains(ids, s) {
					t.Errorf("%s names the approval option %q; read planmode's table", fs.Position(lit.Pos()), s)
				}
			}
			return true
		})
	}
	for _, id := range ids {
		o, _ := planmode.LookupOption(id)
		mode, ok := ModeOfOption(id)
		if ok != o.Teammate || ok && mode != string(o.Mode) {
			t.Errorf("ModeOfOption(%q) = %q, %v; the table says mode %q, for teammates %v", id, mode, ok, o.Mode, o.Teammate)
		}
	}
}
