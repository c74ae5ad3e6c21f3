package tool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
)

type sample struct {
	Path  string   `json:"file_path" desc:"where"`
	Count int      `json:"count,omitempty"`
	Mode  string   `json:"mode,omitempty" enum:"a,b"`
	Tags  []string `json:"tags,omitempty"`
	Deep  *struct {
		On bool `json:"on"`
	} `json:"deep,omitempty"`
}

func TestDecodeErrorsNameTheField(t *testing.T) {
	cases := map[string]string{
		`{"file_path": 3}`:              `"file_path" must be a string`,
		`{"file_path": "x", "nope": 1}`: `unknown field "nope"`,
		`{"file_path": "x"`:             "ends too early",
		`{"file_path": "x"} {}`:         "data after",
		`[1]`:                           "must be a JSON object",
		`{"count": "three"}`:            `"count" must be a number`,
	}
	for in, want := range cases {
		_, err := Decode[sample](json.RawMessage(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want %q", in, err, want)
		}
	}
	if v, err := Decode[sample](nil); err != nil || v.Path != "" {
		t.Errorf("empty input: %+v %v", v, err)
	}
}

func TestSchemaOf(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(SchemaOf[sample](), &s); err != nil {
		t.Fatal(err)
	}
	props := s["properties"].(map[string]any)
	if req := s["required"].([]any); len(req) != 1 || req[0] != "file_path" {
		t.Errorf("required = %v", req)
	}
	if props["file_path"].(map[string]any)["description"] != "where" {
		t.Errorf("description missing: %v", props["file_path"])
	}
	if fmtEnum := props["mode"].(map[string]any)["enum"]; len(fmtEnum.([]any)) != 2 {
		t.Errorf("enum = %v", fmtEnum)
	}
	if props["tags"].(map[string]any)["type"] != "array" || props["count"].(map[string]any)["type"] != "integer" {
		t.Errorf("types: %v", props)
	}
	if s["additionalProperties"] != false {
		t.Error("objects must forbid unknown properties")
	}
}

func TestFileTracker(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := NewFileTracker().CheckFresh(p); err != nil {
		t.Fatalf("a missing file needs no read: %v", err)
	}
	os.WriteFile(p, []byte("one"), 0o644)
	ft := NewFileTracker()
	var stale *StaleError
	if err := ft.CheckFresh(p); err == nil || !asStale(err, &stale) || !stale.NeverRead {
		t.Fatalf("unread file: %v", err)
	}
	ft.Note(p)
	if err := ft.CheckFresh(p); err != nil {
		t.Fatalf("after a read: %v", err)
	}
	os.WriteFile(p, []byte("changed on disk"), 0o644)
	if err := ft.CheckFresh(p); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("changed file: %v", err)
	}
}

// What a resumed session restores of an earlier run's reads counts as
// read, until the file changes; every new state noted is observed once.
func TestFileTrackerRestoreAndObserve(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("one"), 0o644)
	info, _ := os.Stat(p)
	var observed []int64
	first := NewFileTracker()
	first.Observe(func(path string, _ time.Time, size int64) { observed = append(observed, size) })
	first.Note(p)
	first.Note(p) // unchanged: not observed again
	if len(observed) != 1 || observed[0] != 3 {
		t.Fatalf("observed %v", observed)
	}
	resumed := NewFileTracker()
	resumed.Restore(p, info.ModTime(), info.Size())
	if err := resumed.CheckFresh(p); err != nil {
		t.Fatalf("a restored read: %v", err)
	}
	os.WriteFile(p, []byte("changed"), 0o644)
	if err := resumed.CheckFresh(p); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("a file changed since its restored read: %v", err)
	}
}

func asStale(err error, target **StaleError) bool {
	s, ok := err.(*StaleError)
	*target = s
	return ok
}

type named struct{ name, desc string }

func (n named) Name() string                                { return n.name }
func (n named) Kind() permission.Kind                       { return permission.KindNone }
func (n named) Description() string                         { return n.desc }
func (n named) Schema() json.RawMessage                     { return json.RawMessage(`{}`) }
func (n named) ConcurrencySafe() bool                       { return true }
func (n named) Prepare(*Env, json.RawMessage) (Call, error) { return nil, nil }

func TestRegistryOrderReplaceAndFilter(t *testing.T) {
	r := NewRegistry(named{"B", "b"}, named{"A", "a"}, named{"B", "b2"})
	if got := len(r.All()); got != 2 {
		t.Fatalf("%d tools", got)
	}
	if b, _ := r.Get("B"); b.Description() != "b2" {
		t.Fatal("a later tool must replace an earlier one of the same name")
	}
	specs := r.Specs(func(t Tool) bool { return t.Name() != "A" })
	if len(specs) != 1 || specs[0].Name != "B" || specs[0].Description != "b2" {
		t.Fatalf("specs %+v", specs)
	}
	if names := r.Names(); names[0] != "A" || names[1] != "B" {
		t.Fatalf("names %v", names)
	}
}
