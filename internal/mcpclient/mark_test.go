package mcpclient

import (
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

// A tool the user marks read-only while the session runs counts as one
// at once, in the tool itself and in the status.
func TestMarkReadOnlyHoldsAtOnce(t *testing.T) {
	m := startHostile(t, nil)
	find := func() (tool.Tool, ToolInfo) {
		var tt tool.Tool
		for _, x := range m.Tools() {
			if x.Name() == "mcp__h__lookup" {
				tt = x
			}
		}
		for _, ti := range m.Status()[0].Tools {
			if ti.Name == "mcp__h__lookup" {
				return tt, ti
			}
		}
		return tt, ToolInfo{}
	}
	tt, ti := find()
	if tt == nil || tool.MarkedReadOnly(tt) || ti.ReadOnly {
		t.Fatalf("before marking: tool %v, info %+v", tt, ti)
	}
	if !m.MarkReadOnly("mcp__h__lookup") {
		t.Fatal("the tool was not found")
	}
	if m.MarkReadOnly("mcp__h__nothing") {
		t.Fatal("a tool the session does not have was marked")
	}
	tt, ti = find()
	if !tool.MarkedReadOnly(tt) || !ti.ReadOnly {
		t.Fatalf("after marking: read-only %v, info %+v", tool.MarkedReadOnly(tt), ti)
	}
}
