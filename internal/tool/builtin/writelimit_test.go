package builtin

import (
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/tool"
)

// Edit with replace_all refuses a result past the bound before building
// it, and leaves the file as it was; under the bound it goes through.
func TestEditRefusesAResultPastTheBound(t *testing.T) {
	env := newEnv(t)
	env.MaxWrite = 1 << 20
	path := readFirst(t, env, "big.txt", strings.Repeat("x\n", 256<<10)) // 512 KiB, 256Ki lines
	before, _ := os.ReadFile(path)
	res := run(t, NewEdit(), env, map[string]any{"file_path": "big.txt", "old_string": "x", "new_string": strings.Repeat("y", 128), "replace_all": true})
	if !res.IsError || !strings.Contains(res.Content, "files.maxWriteMiB") {
		t.Fatalf("a 32 MiB result was not refused: %.200s", res.Content)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused edit changed the file")
	}
	// The same edit with a short replacement stays under the bound.
	runOK(t, NewEdit(), env, map[string]any{"file_path": "big.txt", "old_string": "x", "new_string": "yz", "replace_all": true})
}

func TestWriteRefusesContentPastTheBound(t *testing.T) {
	env := newEnv(t)
	env.MaxWrite = 1 << 10
	msg := prepareErr(t, NewWrite(), env, map[string]any{"file_path": "out.txt", "content": strings.Repeat("a", 1025)})
	if !strings.Contains(msg, "1024 bytes") {
		t.Fatalf("message %q", msg)
	}
	if _, err := os.Stat(env.Abs("out.txt")); !os.IsNotExist(err) {
		t.Fatal("the refused write made the file")
	}
	runOK(t, NewWrite(), env, map[string]any{"file_path": "out.txt", "content": strings.Repeat("a", 1024)})
}

// Without a setting the bound is the documented default.
func TestDefaultWriteBound(t *testing.T) {
	if int64(config.DefaultMaxWriteMiB)<<20 != tool.DefaultMaxWrite {
		t.Fatalf("the settings' default %d MiB and the tools' %d bytes differ", config.DefaultMaxWriteMiB, tool.DefaultMaxWrite)
	}
	if (&tool.Env{}).WriteLimit() != 32<<20 {
		t.Fatal("the default is not 32 MiB")
	}
}
