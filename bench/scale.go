package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// ScaleCase is one search over a large tree: ponder's tool, run by a
// headless ponder the fake model asks for it, and the program that does
// the same job alone.
type ScaleCase struct {
	Name     string         // what the row says
	Tool     string         // Grep or Glob
	Input    map[string]any // the tool's input (path is the tree)
	Baseline []string       // the baseline command; "TREE" stands for the tree
}

// ScaleCases are the searches measured on a large tree: a file-list Grep
// for a rare and for a common word, and a Glob matching a fifth and all of
// the files, against ripgrep and find.
var ScaleCases = []ScaleCase{
	{"Grep files_with_matches, rare word", "Grep", map[string]any{"pattern": "zanzibar"}, []string{"rg", "--no-config", "-l", "-e", "zanzibar", "TREE"}},
	{"Grep files_with_matches, word in every file", "Grep", map[string]any{"pattern": "request"}, []string{"rg", "--no-config", "-l", "-e", "request", "TREE"}},
	{"Glob `**/*.go`", "Glob", map[string]any{"pattern": "**/*.go"}, []string{"find", "TREE", "-name", "*.go", "-type", "f"}},
	{"Glob `**/*`", "Glob", map[string]any{"pattern": "**/*"}, []string{"find", "TREE", "-type", "f"}},
}

// ScaleRow is one case measured.
type ScaleRow struct {
	Case ScaleCase
	Pair Pair
}

// Scale runs every case n times on the tree at dir (generated with
// GenerateTree): `ponder -p` with the fake model calling the tool once,
// then the baseline, in the same invocation. A ponder run's time includes
// its start-up and two model requests; its memory is the whole process's,
// measured through the launcher of internal/e2e/testdata/peakrss (so the
// module's source must be the working directory).
func Scale(ponder, dir string, n int) ([]ScaleRow, error) {
	cfg, err := os.MkdirTemp("", "ponder-scale-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cfg)
	measured, err := launcher(cfg)
	if err != nil {
		return nil, err
	}
	var rows []ScaleRow
	for _, c := range ScaleCases {
		input := map[string]any{"path": dir}
		for k, v := range c.Input {
			input[k] = v
		}
		srv := fakemodel.NewServer(fakemodel.Script{Replies: []fakemodel.Reply{
			{Times: -1, When: fakemodel.Match{LastUser: "scale-search-now"}, ToolCalls: []fakemodel.ToolCall{{Name: c.Tool, Input: input}}},
			{Times: -1, Text: "done"},
		}})
		subject, err := Time(measured(Cmd{Name: ponder, Args: []string{"-p", "scale-search-now", "--allowedTools", c.Tool}, Env: Env(cfg, srv.Env("anthropic")...), Dir: dir}), n)
		srv.Close()
		if err != nil {
			return nil, err
		}
		args := make([]string, len(c.Baseline)-1)
		for i, a := range c.Baseline[1:] {
			if a == "TREE" {
				a = dir
			}
			args[i] = a
		}
		baseline, err := Time(measured(Cmd{Name: c.Baseline[0], Args: args, Env: Env(cfg), Dir: dir}), n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, ScaleRow{c, Pair{subject, baseline}})
	}
	return rows, nil
}

// TreeSize counts the files and bytes under dir.
func TreeSize(dir string) (files int, bytes int64, err error) {
	err = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("measuring the tree: %w", err)
	}
	return files, bytes, nil
}

// launcher builds internal/e2e/testdata/peakrss in dir and returns what
// makes a command run through it, so that Time reports the peak memory of
// the program alone.
func launcher(dir string) (func(Cmd) Cmd, error) {
	bin := filepath.Join(dir, "peakrss")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/e2e/testdata/peakrss").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the memory launcher: %v\n%s", err, out)
	}
	peak := filepath.Join(dir, "peak")
	return func(c Cmd) Cmd {
		c.Args = append([]string{c.Name}, c.Args...)
		c.Name = bin
		c.Env = append(c.Env, "PEAKRSS_OUT="+peak)
		c.PeakFile = peak
		return c
	}, nil
}

// LongSession runs a headless session of turns turns, each reading a
// different 20 KB file, n times on the given API, with ponder's soft
// memory limit and, as the baseline, with the Go runtime's default
// collector (GOGC=100 in the environment turns the limit off).
func LongSession(ponder, api string, turns, n int) (Pair, error) {
	base, err := os.MkdirTemp("", "ponder-long-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(base)
	measured, err := launcher(base)
	if err != nil {
		return Pair{}, err
	}
	proj := filepath.Join(base, "project")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return Pair{}, err
	}
	var input strings.Builder
	var replies []fakemodel.Reply
	for i := range turns {
		var file strings.Builder
		for l := range 200 {
			fmt.Fprintf(&file, "line %d of notes %02d: %s\n", l, i, strings.Repeat("z", 70))
		}
		if err := os.WriteFile(filepath.Join(proj, fmt.Sprintf("notes%02d.txt", i)), []byte(file.String()), 0o644); err != nil {
			return Pair{}, err
		}
		prompt := fmt.Sprintf("turn %d, please", i)
		replies = append(replies, fakemodel.Reply{Times: -1, When: fakemodel.Match{LastUser: prompt},
			ToolCalls: []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": fmt.Sprintf("notes%02d.txt", i)}}}})
		line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}})
		input.Write(append(line, '\n'))
	}
	replies = append(replies, fakemodel.Reply{Times: -1, Text: "Noted."})
	srv := fakemodel.NewServer(fakemodel.Script{Replies: replies})
	defer srv.Close()
	run := func(extra ...string) (Stats, error) {
		return Time(measured(Cmd{Name: ponder, Args: []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json"},
			Env: Env(base, append(srv.Env(api), extra...)...), Dir: proj, Stdin: input.String()}), n)
	}
	subject, err := run()
	if err != nil {
		return Pair{}, err
	}
	baseline, err := run("GOGC=100")
	return Pair{subject, baseline}, err
}
