package fakemodel

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const scriptJSON = `{
  "replies": [
    {"name": "plan", "when": {"last_user": "fix the bug", "has_tool": "bash", "api": "anthropic"},
     "text": "I will look first.",
     "tool_calls": [
       {"name": "bash", "input": {"command": "go test ./..."}},
       {"id": "toolu_x", "name": "edit", "raw_input": "{\"path\": "}
     ],
     "delay": "150ms", "chunk_delay": 20, "usage": {"input_tokens": 10, "output_tokens": 3}},
    {"status": 529, "retry_after": "2", "retry_after_ms": "2000", "error_message": "busy", "times": 2},
    {"text": "bye", "cut_after": 4, "stop_reason": "max_tokens", "times": -1}
  ]
}`

func TestLoadScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(scriptJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Replies) != 3 {
		t.Fatalf("%d replies", len(s.Replies))
	}
	r := s.Replies[0]
	if r.Name != "plan" || r.When.LastUser != "fix the bug" || r.When.HasTool != "bash" || r.When.API != "anthropic" {
		t.Errorf("first reply %+v", r)
	}
	if r.Delay.D() != 150*time.Millisecond || r.ChunkDelay.D() != 20*time.Millisecond {
		t.Errorf("delays %v %v", r.Delay.D(), r.ChunkDelay.D())
	}
	if r.Usage.InputTokens != 10 || r.Usage.OutputTokens != 3 {
		t.Errorf("usage %+v", r.Usage)
	}
	if got := inputJSON(r.ToolCalls[0]); got != `{"command":"go test ./..."}` {
		t.Errorf("input %s", got)
	}
	if tc := r.ToolCalls[1]; tc.ID != "toolu_x" || inputJSON(tc) != `{"path": ` {
		t.Errorf("raw call %+v", tc)
	}
	e := s.Replies[1]
	if e.Status != 529 || e.RetryAfter != "2" || e.RetryAfterMS != "2000" || e.ErrorMessage != "busy" || e.Times != 2 {
		t.Errorf("error reply %+v", e)
	}
	if c := s.Replies[2]; c.CutAfter != 4 || c.StopReason != "max_tokens" || c.Times != -1 {
		t.Errorf("cut reply %+v", c)
	}
	if got := openAIStop(s.Replies[2]); got != "length" {
		t.Errorf("max_tokens for OpenAI is %q", got)
	}
}

func TestParseScriptRejectsMistakes(t *testing.T) {
	for _, bad := range []string{
		`{"replies": [{"txet": "typo"}]}`,
		`{"replies": [{"when": {"lastuser": "typo"}}]}`,
		`{"replies": [{"delay": "soon"}]}`,
		`{"replies": [{"status": 200}]}`,
		`{"replies": [{"times": -2}]}`,
		`{"replies": [{"tool_calls": [{"input": {}}]}]}`,
		`{"replies": [{"when": {"api": "gemini"}}]}`,
		`not json`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("loaded a missing file")
	}
}

func TestDurationJSON(t *testing.T) {
	var d struct{ A, B, C Duration }
	if err := json.Unmarshal([]byte(`{"A": "2s", "B": 1500, "C": null}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.A.D() != 2*time.Second || d.B.D() != 1500*time.Millisecond || d.C != 0 {
		t.Errorf("%+v", d)
	}
	out, err := json.Marshal(Duration(1500 * time.Millisecond))
	if err != nil || string(out) != `"1.5s"` {
		t.Errorf("marshalled %s, %v", out, err)
	}
}

func TestScriptRoundTripsThroughJSON(t *testing.T) {
	s, err := ParseScript([]byte(scriptJSON))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseScript(data)
	if err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	if !reflect.DeepEqual(s, again) {
		t.Errorf("round trip changed the script:\n%+v\n%+v", s, again)
	}
}

func TestSplitText(t *testing.T) {
	for _, s := range []string{"", "a", "ok", "two words", longText, strings.Repeat("word ", 200), "naïve café ünïcode"} {
		pieces := splitText(s)
		if strings.Join(pieces, "") != s {
			t.Errorf("%q split into %q", s, pieces)
		}
		if len(pieces) > 8 {
			t.Errorf("%q split into %d pieces", s, len(pieces))
		}
		if len([]rune(s)) >= 3 && len(pieces) < 3 {
			t.Errorf("%q split into only %d pieces", s, len(pieces))
		}
	}
}

func TestUnusedCountsUses(t *testing.T) {
	srv := newServer(t,
		Reply{Name: "thrice", Times: 3, Text: "a"},
		Reply{Times: -1, Text: "b"},
	)
	for range 2 {
		if _, err := anthropicText(t, srv, anthropicParams("hi")); err != nil {
			t.Fatal(err)
		}
	}
	if u := srv.Unused(); !reflect.DeepEqual(u, []string{"thrice", "#1"}) {
		t.Errorf("unused %v", u)
	}
}

func TestEnvAndNotFound(t *testing.T) {
	srv := newServer(t)
	if got := srv.Env("anthropic"); !reflect.DeepEqual(got, []string{"ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=fake-key"}) {
		t.Errorf("anthropic env %v", got)
	}
	if got := srv.Env("openai"); !reflect.DeepEqual(got, []string{"OPENAI_BASE_URL=" + srv.URL() + "/v1", "OPENAI_API_KEY=fake-key"}) {
		t.Errorf("openai env %v", got)
	}
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Errorf("url %s", srv.URL())
	}
	resp, err := http.Get(srv.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("status %d", resp.StatusCode)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Outcome != OutcomeBadRequest || r[0].API != "" {
		t.Errorf("log %+v", r)
	}
}
