// Package frontmatter reads the markdown files that describe agents,
// skills and custom commands: an optional YAML header between two "---"
// lines, then a body of text. Agents, skills and commands share this one
// reader, so they agree on what a header is and report a bad one the same
// way: as file:line and what is wrong there, with the line counted in the
// file rather than in the header.
//
// The YAML itself is go.yaml.in/yaml/v3's; this package only finds the
// header and keeps its line numbers. Callers read the files through
// smallfile, so a pipe, a device or an oversized file in a repository
// cannot hang or exhaust ponder.
package frontmatter

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Options say what a caller expects of a header.
type Options struct {
	// Required refuses a file without a header.
	Required bool
	// Strict refuses fields that v does not declare (a typo such as
	// "toolz" is an error rather than silently ignored).
	Strict bool
}

// delimiter opens and closes a header.
const delimiter = "---"

// Parse decodes the header of data into v and returns the body after it,
// with CRLF line ends made LF. Without a header the whole text is the body and v is left as
// it is (unless opts.Required). Errors start with source and, where there
// is one, the line of the file they concern.
func Parse(data []byte, source string, v any, opts Options) (body string, err error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	header, body, found, err := split(text)
	if err != nil {
		return "", locate(source, 1, err.Error())
	}
	if !found {
		if opts.Required {
			return "", locate(source, 1, "the file must start with front matter (a --- line, YAML, and another --- line)")
		}
		return text, nil
	}
	// The header starts on the file's second line: a leading newline makes
	// the decoder's line numbers the file's.
	dec := yaml.NewDecoder(strings.NewReader("\n" + header))
	dec.KnownFields(opts.Strict)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return "", yamlError(source, err)
	}
	return body, nil
}

// split finds the header: text starting with a "---" line, up to the
// next line that is "---" (trailing blanks allowed).
func split(text string) (header, body string, found bool, err error) {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != delimiter {
		return "", text, false, nil
	}
	for off := 0; off <= len(rest); {
		line, _, more := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t") == delimiter {
			body = ""
			if end := off + len(line) + 1; end < len(rest) {
				body = rest[end:]
			}
			return rest[:off], body, true, nil
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return "", "", false, errors.New("the front matter opened here is not closed with a --- line")
}

// Error is a problem in a file, at a line when Line is not 0.
type Error struct {
	Source string
	Line   int
	Msg    string
}

func (e *Error) Error() string {
	var b bytes.Buffer
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(":")
	}
	if e.Line > 0 {
		if e.Source == "" {
			b.WriteString("line ")
		}
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(":")
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func locate(source string, line int, msg string) error {
	return &Error{Source: source, Line: line, Msg: msg}
}

// yamlError turns the decoder's "yaml: line 3: …" and "line 3: …" texts
// into errors at that line of the file; a type error about several fields
// keeps the first line and all the messages.
func yamlError(source string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	line := 0
	for i, m := range msgs {
		n, rest, ok := lineOf(m)
		if !ok {
			continue
		}
		if parserProblems[rest] {
			n++
		}
		if line == 0 {
			line = n
		}
		if n == line {
			msgs[i] = rest
		}
	}
	return locate(source, line, "front matter: "+strings.Join(msgs, "; "))
}

// parserProblems are the decoder's complaints about structure. It counts
// their lines from 0 where it counts all others from 1 (a flow list left
// open on a file's third line is reported at line 2), so their line is
// one more than it says.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// lineOf reads "line N: rest".
func lineOf(msg string) (int, string, bool) {
	numText, rest, ok := strings.Cut(strings.TrimPrefix(msg, "line "), ": ")
	if !ok || !strings.HasPrefix(msg, "line ") {
		return 0, msg, false
	}
	n, err := strconv.Atoi(numText)
	if err != nil {
		return 0, msg, false
	}
	return n, rest, true
}
