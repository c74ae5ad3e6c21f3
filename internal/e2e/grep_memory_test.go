package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Grep on a named file much larger than ponder's memory budget streams
// it: the model gets the matching lines, and ponder's peak memory stays
// far below the file's size.
func TestGrepOnAHugeFileStaysSmall(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "grep", When: fakemodel.Match{LastUser: "find the needle"}, ToolCalls: tools(call{Name: "Grep",
				Input: map[string]any{"pattern": "needle-[0-9]+", "path": "huge.log", "output_mode": "content"}})},
			fakemodel.Reply{Name: "found", When: fakemodel.Match{ToolResult: "needle-"}, Text: "found it"},
		)
		const mb = 192
		f, err := os.Create(filepath.Join(w.dir, "huge.log"))
		if err != nil {
			t.Fatal(err)
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		for i, n := 0, 0; n < mb<<20; i++ {
			line := fmt.Sprintf("%09d an ordinary line of a large log file, nothing to see here\n", i)
			if i%500_000 == 250_000 {
				line = fmt.Sprintf("%09d the needle-%d is here\n", i, i)
			}
			k, _ := bw.WriteString(line)
			n += k
		}
		bw.Flush()
		f.Close()

		p := w.spawnMeasured("-p", "find the needle", "--allowedTools", "Grep")
		if code, _ := p.wait(t); code != 0 {
			t.Fatalf("exit %d: %s", code, p.stderr.String())
		}
		peak := p.peakMB(t)
		t.Logf("ponder's peak RSS: %d MB while searching a %d MB file", peak, mb)
		if peak > 100 {
			t.Errorf("peak RSS %d MB for a %d MB file", peak, mb)
		}
		reqs := w.srv.Requests()
		res := toolResults(reqs[len(reqs)-1])
		if len(res) != 1 || !strings.Contains(res[0].Content, ":250001:000250000 the needle-250000 is here") {
			t.Fatalf("tool result %+v", res)
		}
	})
}
