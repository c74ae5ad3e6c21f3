package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/tool"
)

// writer is a test tool that writes one file and previews its change.
type writer struct{ root string }

func (writer) Name() string            { return "Write" }
func (writer) Kind() permission.Kind   { return permission.KindWrite }
func (writer) Description() string     { return "test writer" }
func (writer) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (writer) ConcurrencySafe() bool   { return false }
func (w writer) Prepare(_ *tool.Env, in json.RawMessage) (tool.Call, error) {
	var v struct {
		File string `json:"file"`
	}
	_ = json.Unmarshal(in, &v)
	return writeCall{path: filepath.Join(w.root, v.File), rel: v.File}, nil
}

type writeCall struct{ path, rel string }

func (c writeCall) Access() permission.Access {
	return permission.Access{Paths: []string{c.path}}
}
func (c writeCall) Run(context.Context) tool.Result { return tool.Result{Content: "written"} }
func (c writeCall) Preview() (string, string) {
	return c.rel, "@@ -1 +1 @@\n-WHAT THE FILE HOLDS\n+new\n"
}

type recordingAsker struct{ asked []permission.Question }

func (r *recordingAsker) Ask(_ context.Context, q permission.Question) (permission.Answer, error) {
	r.asked = append(r.asked, q)
	return permission.Answer{Allow: false, Message: "no"}, nil
}

// The question about an edit carries its diff only where the rules let
// the agent read the file: the diff shows what the file holds now.
func TestEditQuestionDiffOnlyForReadableFiles(t *testing.T) {
	root := t.TempDir()
	eng, err := permission.NewEngine(permission.Rules{Deny: []string{"Read(secret.txt)"}}, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ask := &recordingAsker{}
	prov := fakemodel.NewProvider(fakemodel.Script{Replies: []fakemodel.Reply{
		{ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file": "open.txt"}}, {Name: "Write", Input: map[string]any{"file": "secret.txt"}}}},
		{Text: "done"},
	}})
	a := New(Config{
		Provider: prov,
		Model:    func(permission.Mode) string { return "m" },
		Tools:    tool.NewRegistry(writer{root}, probe{name: "Read", kind: permission.KindRead}),
		Perm:     eng,
		Plan:     planmode.New(planmode.Config{ConfigDir: t.TempDir(), ProjectDir: root}, "s", permission.ModeDefault, nil, nil),
		Ask:      ask,
		Emit:     func(event.Event) {},
	}, nil)

	if _, err := a.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if len(ask.asked) != 2 {
		t.Fatalf("asked %d questions", len(ask.asked))
	}
	if ask.asked[0].Path != "open.txt" || ask.asked[0].Diff == "" {
		t.Fatalf("readable file: %+v", ask.asked[0])
	}
	if ask.asked[1].Path != "secret.txt" || ask.asked[1].Diff != "" {
		t.Fatalf("a file the rules keep from reading was diffed: %+v", ask.asked[1])
	}
}
