package builtin

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/ponder-agent/ponder/internal/tool"
)

// format turns the results of a search into the text the model reads.
// Results are sorted first, so the same tree always gives the same text.
func (c *grepCall) format(set *resultSet, stats grepStats) tool.Result {
	var notes []string
	if stats.large > 0 {
		notes = append(notes, fmt.Sprintf("%s larger than %d MB not searched; name such a file as path to search it.", plural(stats.large, "file"), grepMaxFileSize>>20))
	}
	if stats.largePseudo > 0 {
		notes = append(notes, fmt.Sprintf("%s of /proc or /sys longer than %d MB not searched; name such a file as path to search it.", plural(stats.largePseudo, "file"), pseudoWalkMaxBytes>>20))
	}
	if stats.hidden != "" {
		notes = append(notes, stats.hidden)
	}
	if stats.stream.cutLines {
		notes = append(notes, fmt.Sprintf("Lines longer than %d MB were searched in pieces; a match across two pieces is missed.", defaultStream.maxLine>>20))
	}
	if stats.cutAt > 0 {
		notes = append(notes, fmt.Sprintf("Only the first %d MB of the file were searched; it goes on.", stats.cutAt>>20))
	}
	if stats.stream.windowed {
		notes = append(notes, fmt.Sprintf("The file was searched in windows; a multiline match longer than %d MB may be missed.", defaultStream.carry>>20))
	}
	if set == nil || set.files == 0 {
		msg := fmt.Sprintf("No matches for %q in %s.", c.pattern, c.root)
		if stats.binaryRoot {
			msg = fmt.Sprintf("%s is a binary file; Grep searches only text files.", c.root)
		}
		return tool.Result{Content: joinNotes(msg, notes), Summary: "No matches"}
	}
	results := set.shown() // those that can be shown, in order
	total, extra := set.total, set.extra
	var entries []string // one per output line shown
	var header string
	all := set.files // output lines in all, whether kept or not
	switch c.s.mode {
	case modeFiles:
		header = fmt.Sprintf("Found %s", plural(set.files, "file"))
		for _, r := range results {
			entries = append(entries, r.path)
		}
	case modeCount:
		header = fmt.Sprintf("Found %s in %s", plural(total, "matching line"), plural(set.files, "file"))
		for _, r := range results {
			entries = append(entries, r.path+":"+strconv.Itoa(r.count))
		}
	case modeContent:
		sep := c.s.before > 0 || c.s.after > 0
		all = set.lines
		if sep {
			all += set.files - 1
		}
		for i, r := range results {
			if sep && i > 0 {
				entries = append(entries, "--")
			}
			for line := range bytes.Lines(r.out) {
				entries = append(entries, string(bytes.TrimSuffix(line, []byte{'\n'})))
			}
		}
	}
	summary := fmt.Sprintf("Found %s in %s", plural(total, "matching line"), plural(set.files, "file"))
	if c.s.mode == modeFiles {
		summary = header
	}
	// Lines left out of long results count in the totals below.
	all += extra
	shown := entries
	if c.head > 0 && all > c.head {
		shown = entries[:min(c.head, len(entries))]
		unit := "entries"
		if c.s.mode == modeContent {
			unit = "lines"
		}
		notes = append(notes, fmt.Sprintf("Showing the first %d of %d %s (head_limit).", c.head, all, unit))
	}
	var b strings.Builder
	if header != "" {
		b.WriteString(header)
		b.WriteString("\n")
	}
	for i, e := range shown {
		if b.Len()+len(e) > grepMaxOutput {
			notes = append(notes, fmt.Sprintf("Output cut after %d of %d lines because it is long; narrow the path, glob or pattern, or use head_limit.", i, all))
			break
		}
		b.WriteString(e)
		b.WriteByte('\n')
	}
	return tool.Result{Content: joinNotes(validUTF8(strings.TrimSuffix(b.String(), "\n")), notes), Summary: summary}
}

func joinNotes(text string, notes []string) string {
	if len(notes) == 0 {
		return text
	}
	return text + "\n\n(" + strings.Join(notes, " ") + ")"
}
