package editor

import (
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	env := map[string]string{"EDITOR": "true --flag"}
	cmd, err := Command("/tmp/plan.md", func(k string) string { return env[k] })
	if err != nil || !strings.HasSuffix(cmd.Path, "true") || strings.Join(cmd.Args[1:], " ") != "--flag /tmp/plan.md" {
		t.Fatalf("cmd %v %v", cmd, err)
	}
	env["VISUAL"] = "false"
	if cmd, _ := Command("x", func(k string) string { return env[k] }); !strings.HasSuffix(cmd.Path, "false") {
		t.Fatal("$VISUAL wins over $EDITOR")
	}
	env["VISUAL"] = "no-such-editor-here"
	if _, err := Command("x", func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "no-such-editor-here") {
		t.Fatalf("missing editor: %v", err)
	}
}
