package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/builtin"
)

// Pair is a measurement of ponder and of its baseline, run together.
type Pair struct {
	Subject, Baseline Stats
}

// Ratio is the subject's median over the baseline's.
func (p Pair) Ratio() float64 { return float64(p.Subject.Median) / float64(p.Baseline.Median) }

// Startup times `ponder version` against `true`.
func Startup(ponder string, n int) (Pair, error) {
	dir, err := os.MkdirTemp("", "ponder-bench-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	subject, err := Time(Cmd{Name: ponder, Args: []string{"version"}, Env: Env(dir), Dir: dir}, n)
	if err != nil {
		return Pair{}, err
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		return Pair{}, err
	}
	baseline, err := Time(Cmd{Name: truePath, Env: Env(dir), Dir: dir}, n)
	return Pair{subject, baseline}, err
}

// curlStream is one raw streaming request to the fake's Anthropic API.
func curlStream(url, text string) string {
	body, _ := json.Marshal(map[string]any{"model": "m", "max_tokens": 100, "stream": true,
		"messages": []map[string]any{{"role": "user", "content": text}}})
	return fmt.Sprintf("curl -sS -N -o /dev/null %s/v1/messages -H 'content-type: application/json' -H 'x-api-key: x' -H 'anthropic-version: 2023-06-01' -d '%s'", url, body)
}

// OneTurn times `ponder -p hi` answered with text, against one raw
// streaming request made with curl to the same fake.
func OneTurn(ponder string, n int) (Pair, error) {
	p, _, err := OneTurnWithFloor(ponder, "", n)
	return p, err
}

// OneTurnWithFloor is OneTurn, also timing the SDK-only floor program.
func OneTurnWithFloor(ponder, floor string, n int) (Pair, Stats, error) {
	srv := fakemodel.NewServer(fakemodel.Script{Replies: []fakemodel.Reply{{Times: -1, Text: "Hello! How can I help you today?"}}})
	defer srv.Close()
	dir, err := os.MkdirTemp("", "ponder-bench-")
	if err != nil {
		return Pair{}, Stats{}, err
	}
	defer os.RemoveAll(dir)
	subject, err := Time(Cmd{Name: ponder, Args: []string{"-p", "hi"}, Env: Env(dir, srv.Env("anthropic")...), Dir: dir}, n)
	if err != nil {
		return Pair{}, Stats{}, err
	}
	baseline, err := Time(Cmd{Name: "sh", Args: []string{"-c", curlStream(srv.URL(), "hi")}, Env: Env(dir), Dir: dir}, n)
	if err != nil || floor == "" {
		return Pair{subject, baseline}, Stats{}, err
	}
	fl, err := Time(Cmd{Name: floor, Env: Env(dir, srv.Env("anthropic")...), Dir: dir}, n)
	return Pair{subject, baseline}, fl, err
}

// ThreeTurns times a headless run of three model turns (Read a file, Write
// a file, answer) against three raw requests made with curl.
func ThreeTurns(ponder string, n int) (Pair, error) {
	srv := fakemodel.NewServer(fakemodel.Script{Replies: []fakemodel.Reply{
		{Times: -1, When: fakemodel.Match{LastUser: "summarise"}, ToolCalls: []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": "notes.txt"}}}},
		{Times: -1, When: fakemodel.Match{ToolResult: "first note"}, ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "summary.txt", "content": "two notes\n"}}}},
		{Times: -1, When: fakemodel.Match{ToolResult: "summary.txt"}, Text: "Wrote summary.txt."},
	}})
	defer srv.Close()
	base, err := os.MkdirTemp("", "ponder-bench-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(base)
	setup := func(i int) (string, error) {
		d := filepath.Join(base, fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
		return d, os.WriteFile(filepath.Join(d, "notes.txt"), []byte("first note\nsecond note\n"), 0o644)
	}
	subject, err := Time(Cmd{Name: ponder, Args: []string{"-p", "summarise the notes", "--permission-mode", "acceptEdits"},
		Env: Env(base, srv.Env("anthropic")...), Setup: setup}, n)
	if err != nil {
		return Pair{}, err
	}
	three := strings.Join([]string{curlStream(srv.URL(), "summarise"), curlStream(srv.URL(), "summarise"), curlStream(srv.URL(), "summarise")}, " && ")
	baseline, err := Time(Cmd{Name: "sh", Args: []string{"-c", three}, Env: Env(base), Dir: base}, n)
	return Pair{subject, baseline}, err
}

// Harness runs a scripted session of turns human messages in process, each
// answered after one tool round trip (so 2×turns model requests), and
// returns the time per model request spent in ponder itself: the session's
// time minus the time the fake model took for the same requests.
func Harness(turns int) (perRequest, fake time.Duration, err error) {
	prov := fakemodel.NewProvider(fakemodel.Script{Replies: []fakemodel.Reply{
		{Times: -1, When: fakemodel.Match{Func: func(r *fakemodel.Request) bool { return len(r.LastUser().ToolResults) == 0 }},
			ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
		{Times: -1, Text: "Noted. Here is a short answer to keep the history realistic."},
	}})
	dir, err := os.MkdirTemp("", "ponder-bench-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	proj := filepath.Join(dir, "project")
	os.MkdirAll(proj, 0o755)
	for i := range 20 {
		os.WriteFile(filepath.Join(proj, fmt.Sprintf("file%02d.go", i)), []byte("package x\n"), 0o644)
	}
	a, err := app.New(app.Options{Dir: proj, ConfigDir: filepath.Join(dir, "config"), LLM: prov, Getenv: func(string) string { return "" }})
	if err != nil {
		return 0, 0, err
	}
	defer a.Close()
	if err := a.Start(); err != nil {
		return 0, 0, err
	}
	ctx := context.Background()
	start := time.Now()
	for i := range turns {
		if _, err := a.Send(ctx, fmt.Sprintf("turn %d: look at the files", i)); err != nil {
			return 0, 0, err
		}
	}
	total := time.Since(start)
	// The fake's own share: replay the same requests against a fresh fake.
	replay := fakemodel.NewProvider(fakemodel.Script{Replies: []fakemodel.Reply{{Times: -1, Text: "x"}}})
	reqs := prov.Requests()
	hist := llmMessages(a.History())
	start = time.Now()
	for range reqs {
		for range replay.Stream(ctx, fakeRequest(hist)) {
		}
	}
	fake = time.Since(start)
	requests := len(reqs)
	return (total - fake) / time.Duration(requests), fake / time.Duration(requests), nil
}

// GrepPair times ponder's Grep tool (in process) and ripgrep (a process)
// on the same tree and pattern, ripgrep with the same output mode.
func GrepPair(dir, pattern, mode string, n int) (Pair, error) {
	g := builtin.NewGrep()
	env := &tool.Env{Dir: dir, Files: tool.NewFileTracker()}
	input, _ := json.Marshal(map[string]any{"pattern": pattern, "path": dir, "output_mode": mode})
	var times []time.Duration
	for range n {
		start := time.Now()
		call, err := g.Prepare(env, input)
		if err != nil {
			return Pair{}, err
		}
		res := call.Run(context.Background())
		times = append(times, time.Since(start))
		if res.IsError {
			return Pair{}, fmt.Errorf("grep %q: %s", pattern, res.Content)
		}
	}
	subject := summarise(times)
	args := []string{"--no-config"}
	switch mode {
	case "files_with_matches":
		args = append(args, "-l")
	case "count":
		args = append(args, "-c")
	default:
		args = append(args, "-n")
	}
	args = append(args, "-e", pattern, dir)
	baseline, err := Time(Cmd{Name: "rg", Args: args, Env: Env(dir)}, n)
	return Pair{subject, baseline}, err
}
