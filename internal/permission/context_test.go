package permission

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewContext(t *testing.T) {
	asked := 0
	plan := func() string { asked++; return "/plans/p.md" }
	c := NewContext(ModeDefault, plan, Caller{Type: "Explore", ReadOnly: true, Subagent: true, DeniedTools: []string{"Bash"}})
	if asked != 0 || c.PlanFile != "" {
		t.Errorf("the plan file was asked for outside plan mode: %+v", c)
	}
	if !c.ReadOnlyAgent || c.AgentType != "Explore" || !c.Subagent || len(c.DeniedTools) != 1 {
		t.Errorf("the caller was not kept: %+v", c)
	}
	if c := NewContext(ModePlan, plan, Caller{}); c.PlanFile != "/plans/p.md" || asked != 1 {
		t.Errorf("plan mode has no plan file: %+v", c)
	}
	if c := NewContext(ModePlan, nil, Caller{}); c.PlanFile != "" {
		t.Errorf("a caller without a plan file got one: %+v", c)
	}
}

// TestContextIsMadeByNewContext fails when a permission.Context is built
// field by field anywhere in ponder's code but NewContext: every caller
// gets the same rules for the plan file and the caller's limits.
func TestContextIsMadeByNewContext(t *testing.T) {
	err := filepath.Walk("..", func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") ||
			p == filepath.Join("..", "permission", "context.go") {
			return err
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, p, nil, 0)
		if err != nil {
			return err
		}
		inPermission := filepath.Dir(p) == filepath.Join("..", "permission")
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) == 0 {
				return true
			}
			switch ty := lit.Type.(type) {
			case *ast.SelectorExpr:
				if x, ok := ty.X.(*ast.Ident); ok && x.Name == "permission" && ty.Sel.Name == "Context" {
					t.Errorf("%s builds a permission.Context by hand; use permission.NewContext", fs.Position(lit.Pos()))
				}
			case *ast.Ident:
				if inPermission && ty.Name == "Context" {
					t.Errorf("%s builds a Context by hand; use NewContext", fs.Position(lit.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
