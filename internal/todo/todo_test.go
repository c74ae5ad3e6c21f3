package todo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveLoad(t *testing.T) {
	p := Path(t.TempDir(), "s1", "")
	if !strings.HasSuffix(p, filepath.Join("todos", "s1-agent-s1.json")) {
		t.Fatalf("path = %s", p)
	}
	items := []Item{{Content: "write tests", Status: InProgress, ActiveForm: "Writing tests"}}
	if err := Save(p, items); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil || len(got) != 1 || got[0] != items[0] {
		t.Fatalf("Load = %+v, %v", got, err)
	}
}

func TestLoadBrokenFilesGiveEmptyListAndError(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage":    "{{{",
		"badstatus":  `[{"content":"x","status":"done","activeForm":"X"}]`,
		"nocontent":  `[{"content":"","status":"pending","activeForm":"X"}]`,
		"wrongshape": `{"todos":[]}`,
	} {
		p := filepath.Join(dir, name+".json")
		os.WriteFile(p, []byte(content), 0o644)
		items, err := Load(p)
		if err == nil || items != nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: Load = %+v, %v; want empty list and an error naming the file", name, items, err)
		}
	}
	if items, err := Load(filepath.Join(dir, "missing.json")); err != nil || items != nil {
		t.Errorf("missing file: %+v, %v", items, err)
	}
}
