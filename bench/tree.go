package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
)

// words fill generated source files.
var words = strings.Fields(`func return package import struct interface error nil value index buffer
	reader writer context request response handler server client config option parse format
	string bytes count total result status message record entry table column select update`)

// GenerateTree writes a tree of files under dir: files spread over nested
// directories, each about 2 KiB of code-like text, a few holding the rare
// word "zanzibar", and a .gitignore that hides a build directory. The same
// seed gives the same tree.
func GenerateTree(dir string, files int) error {
	r := rand.New(rand.NewPCG(42, 7))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\n*.tmp\n"), 0o644); err != nil {
		return err
	}
	exts := []string{".go", ".ts", ".py", ".md", ".json"}
	var b strings.Builder
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%40), fmt.Sprintf("mod%03d", i%400))
		if i%50 == 0 {
			sub = filepath.Join(dir, "build", fmt.Sprintf("out%03d", i%400))
		}
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		b.Reset()
		for line := 0; line < 40; line++ {
			for w := 0; w < 8; w++ {
				b.WriteString(words[r.IntN(len(words))])
				b.WriteByte(' ')
			}
			if r.IntN(2000) == 0 {
				b.WriteString("zanzibar ")
			}
			fmt.Fprintf(&b, "%d\n", r.IntN(100000))
		}
		name := filepath.Join(sub, fmt.Sprintf("file%05d%s", i, exts[i%len(exts)]))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func summarise(times []time.Duration) Stats {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return Stats{Runs: len(times), Median: times[len(times)/2], Min: times[0]}
}

func fakeRequest(history []llm.Message) llm.Request {
	return llm.Request{Model: "m", Messages: history}
}

// llmMessages turns a conversation as front ends see it back into the
// provider's messages, to replay it.
func llmMessages(msgs []event.Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	for i, m := range msgs {
		out[i] = llm.Message{Role: llm.Role(m.Role)}
		for _, b := range m.Content {
			out[i].Content = append(out[i].Content, llm.Block{Type: llm.BlockType(b.Type), Text: b.Text, ID: b.ID, Name: b.Name,
				Input: b.Input, ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError, Reminder: b.Reminder})
		}
	}
	return out
}
