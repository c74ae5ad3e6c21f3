package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/session"
)

// Transcript writes a session of n messages (user turns, answers with a
// tool call, tool results) for project dir and returns its id and file.
func Transcript(configDir, dir string, n int) (id, path string, err error) {
	id = "9c8b7a60-1234-4def-8abc-0123456789ab"
	path = session.NewStore(configDir, dir).Path(id)
	w, err := session.Create(path, session.Entry{SessionID: id, Cwd: dir})
	if err != nil {
		return "", "", err
	}
	defer w.Close()
	for i := 0; i < n; i++ {
		var m llm.Message
		switch i % 3 {
		case 0:
			m = llm.UserText(fmt.Sprintf("Question %d: how does the greeting get its name, and where is it printed?", i))
		case 1:
			m = llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{
				llm.TextBlock("Let me look at the entry point to answer that precisely."),
				llm.ToolUseBlock(fmt.Sprintf("t%d", i), "Read", `{"file_path":"main.go"}`),
			}}
		default:
			m = llm.Message{Role: llm.RoleUser, Content: []llm.Block{{Type: llm.BlockToolResult, ToolUseID: fmt.Sprintf("t%d", i-1),
				Content: "     1\tpackage main\n     2\t\n     3\tfunc main() { fmt.Println(greeting(*name)) }"}}}
		}
		if err := w.Append(session.Entry{Type: session.TypeMessage, Message: &m}); err != nil {
			return "", "", err
		}
	}
	return id, path, nil
}

// Resume times rebuilding a session from a transcript of n messages, as
// --resume does before the first request, against decoding every line of
// the same file into generic JSON values.
func Resume(n, runs int) (Pair, error) {
	base, err := os.MkdirTemp("", "ponder-resume-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(base)
	dir, cfg := filepath.Join(base, "project"), filepath.Join(base, "config")
	os.MkdirAll(dir, 0o755)
	id, path, err := Transcript(cfg, dir, n)
	if err != nil {
		return Pair{}, err
	}
	var subject, baseline []time.Duration
	for range runs {
		start := time.Now()
		a, err := app.New(app.Options{Dir: dir, ConfigDir: cfg, Resume: id, LLM: fakemodel.NewProvider(fakemodel.Script{}), Getenv: func(string) string { return "" }})
		if err != nil {
			return Pair{}, err
		}
		if got := len(a.History()); got != n {
			return Pair{}, fmt.Errorf("resumed %d messages, want %d", got, n)
		}
		subject = append(subject, time.Since(start))
		a.Close()

		start = time.Now()
		if err := decodeLines(path); err != nil {
			return Pair{}, err
		}
		baseline = append(baseline, time.Since(start))
	}
	return Pair{Subject: summarise(subject), Baseline: summarise(baseline)}, nil
}

func decodeLines(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return err
		}
	}
	return sc.Err()
}
