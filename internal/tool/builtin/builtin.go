// Package builtin holds the tools ponder always offers the model: reading,
// writing and editing files, finding files and text, listing directories,
// running shell commands and fetching web pages.
//
// Each tool parses its input in Prepare, resolves paths against the
// project directory and declares what the call touches; the work happens
// in Run, after the permission engine has agreed.
package builtin

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// fileAccess declares a read or write of one absolute path.
func fileAccess(path string) permission.Access {
	return permission.Access{Paths: []string{path}}
}

// decidedPath is the file a Read, Write or Edit call names: the path as
// given (for messages, rules and the editor) and its canonical form,
// resolved once when the call is prepared. The permission decision judges
// canon (Access.Canon) and the tool opens canon itself following no
// symbolic link (openDecided, atomicfile.WriteNoFollow), so that nothing
// another process does between the decision and the open (a directory on
// the way swapped for a link to ~/.ssh) can send the tool to a file that
// was not judged.
type decidedPath struct {
	path, canon string
}

// decide resolves path once.
func decide(path string) decidedPath {
	return decidedPath{path: path, canon: permission.Canonical(path)}
}

// access is the permission access of the one file, with its canonical
// form given.
func (d decidedPath) access() permission.Access {
	return permission.Access{Paths: []string{d.path}, Canon: []string{d.canon}}
}

// countLines counts lines the way an editor shows them: a final line
// without a newline still counts, an empty text has none.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// numbered appends one line in `cat -n` style: the number right-aligned
// in six columns, a tab, the text.
func numbered(b []byte, n int, line string) []byte {
	var num [20]byte
	digits := strconv.AppendInt(num[:0], int64(n), 10)
	for i := len(digits); i < 6; i++ {
		b = append(b, ' ')
	}
	b = append(b, digits...)
	b = append(b, '\t')
	b = append(b, line...)
	return append(b, '\n')
}

// cutRunes shortens s to at most n characters, reporting whether it cut.
func cutRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}

// plural formats a count with a noun, in the plural when needed ("entry"
// becomes "entries", other nouns take an "s").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return strconv.Itoa(n) + " " + noun[:len(noun)-1] + "ies"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// validUTF8 replaces invalid byte sequences so the text can go to a model.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// commit replaces path with data, through the user's editor when the
// session has one and it puts the data on disk, else atomically here; and
// records the new state as seen by the session, so the next edit needs no
// fresh read. The session hears of the change first, to checkpoint it.
func commit(ctx context.Context, env *tool.Env, path, canon string, data []byte) error {
	if env.Changes != nil {
		env.Changes.BeforeWrite(path)
	}
	if env.WriteThroughEditor(ctx, path, data) {
		if env.Files != nil {
			env.Files.Note(path)
		}
		return nil
	}
	if err := atomicfile.WriteNoFollow(canon, data, 0o644); err != nil {
		return err
	}
	if env.Files != nil {
		env.Files.Note(path)
	}
	return nil
}
