package permission

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPlanModeWrite(t *testing.T) {
	dir := Canonical(t.TempDir())
	plan := filepath.Join(dir, "plan.md")
	other := filepath.Join(dir, "other.md")
	if err := PlanModeWrite(ModeDefault, "", other); err != nil {
		t.Errorf("outside plan mode: %v", err)
	}
	if err := PlanModeWrite(ModePlan, plan, plan); err != nil {
		t.Errorf("the plan file: %v", err)
	}
	if err := PlanModeWrite(ModePlan, plan, filepath.Join(dir, "x", "..", "plan.md")); err != nil {
		t.Errorf("the plan file by another spelling: %v", err)
	}
	for _, c := range []struct {
		plan  string
		paths []string
	}{{plan, []string{other}}, {plan, []string{plan, other}}, {plan, nil}, {"", []string{plan}}} {
		if err := PlanModeWrite(ModePlan, c.plan, c.paths...); err == nil {
			t.Errorf("plan mode let %v change (plan file %q)", c.paths, c.plan)
		}
	}
	// A link to another file at a path that is not the plan's is refused,
	// whatever it leads to.
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(plan, link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := PlanModeWrite(ModePlan, other, link); err == nil {
		t.Error("a link to a file that is not the plan file was let through")
	}
}

// TestPlanModeRefusalIsWrittenOnce fails when plan mode's rule on changing
// files is written a second time: a path compared with the plan file, or
// the rule's wording, anywhere in ponder's code but planfile.go (and the
// engine's message in readonly.go, and planmode's texts for the model,
// which explain the rule). Callers use PlanModeWrite.
func TestPlanModeRefusalIsWrittenOnce(t *testing.T) {
	root := ".."
	home := map[string]bool{
		filepath.Join("..", "permission", "planfile.go"): true,
		filepath.Join("..", "permission", "readonly.go"): true,
	}
	wording := []string{"nothing but the plan file", "only the plan file", "plan mode changes"}
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() && (info.Name() == "demo" || info.Name() == "testdata") {
			return filepath.SkipDir // the demo's scripted model text
		}
		if info.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || home[p] {
			return nil
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (comparesPlanPath(n.X, n.Y) || comparesPlanPath(n.Y, n.X)) {
					t.Errorf("%s compares a path with the plan file; use permission.PlanModeWrite", fs.Position(n.Pos()))
				}
			case *ast.BasicLit:
				// planmode's texts tell the model what the rule is.
				if n.Kind == token.STRING && !strings.Contains(filepath.ToSlash(p), "/planmode/") {
					s, _ := strconv.Unquote(n.Value)
					for _, w := range wording {
						if strings.Contains(strings.ToLower(s), w) {
							t.Errorf("%s words plan mode's rule again (%q); use permission.PlanModeWrite's refusal", fs.Position(n.Pos()), s)
						}
					}
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

// comparesPlanPath reports whether x names the plan file (a PlanFile
// field or method, or a variable called plan) and y is a path worked out
// from something else (a call, an element of a list).
func comparesPlanPath(x, y ast.Expr) bool {
	if lit, ok := y.(*ast.BasicLit); ok && lit.Value == `""` {
		return false
	}
	named := false
	switch x := x.(type) {
	case *ast.SelectorExpr:
		named = x.Sel.Name == "PlanFile"
	case *ast.CallExpr:
		if s, ok := x.Fun.(*ast.SelectorExpr); ok {
			named = s.Sel.Name == "PlanFile"
		}
	case *ast.Ident:
		switch y.(type) {
		case *ast.CallExpr, *ast.IndexExpr:
			named = x.Name == "plan" || x.Name == "planFile"
		}
	}
	return named
}
