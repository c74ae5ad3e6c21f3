package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Block parsing works on whole lines, recursively: a block quote or a list
// item collects its lines, strips its own markers and indentation, and
// parses what is left as a small document of its own. That handles nesting
// and lazy continuation lines the way models use them without CommonMark's
// full open-container machinery.

type blockKind uint8

const (
	bPara blockKind = iota
	bHeading
	bRule
	bCode
	bQuote
	bList
	bTable
	bHTML
)

type block struct {
	kind     blockKind
	level    int      // heading level, 1..6
	text     string   // paragraph and heading source, lines joined by "\n"
	lines    []string // code and HTML lines
	info     string   // code block info string (its first word)
	children []block  // block quote contents
	list     *list
	table    *table
}

type list struct {
	ordered bool
	start   int
	delim   byte // '.' or ')' for ordered lists, the bullet character otherwise
	loose   bool
	items   []listItem
}

type listItem struct {
	task     int8 // taskNone, taskTodo or taskDone
	children []block
}

const (
	taskNone int8 = iota
	taskTodo
	taskDone
)

// maxNesting bounds how deeply quotes and lists nest; deeper markers are
// shown as text. It keeps hostile input from recursing without end.
const maxNesting = 32

// prepare splits src into lines, normalising line endings, dropping control
// characters (an escape sequence in the input must not reach the
// terminal), repairing invalid UTF-8 and expanding tabs to 4-column stops.
func prepare(src string) []string {
	if needsCleaning(src) {
		src = clean(src, false)
	}
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.IndexByte(l, '\t') >= 0 {
			lines[i] = expandTabs(l)
		}
	}
	return lines
}

func needsCleaning(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
			return true
		case c >= 0x80:
			ascii = false
		}
	}
	return !ascii && !utf8.ValidString(s)
}

// clean applies prepare's rules; oneLine also drops newlines and tabs.
func clean(s string, oneLine bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			if !oneLine && !(i+1 < len(s) && s[i+1] == '\n') {
				b.WriteByte('\n')
			}
		case r == '\n' || r == '\t':
			if !oneLine {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case isControl(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// sanitizeInline cleans text that must stay on one line.
func sanitizeInline(s string) string { return clean(s, true) }

func expandTabs(l string) string {
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

func indentOf(l string) int {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	return i
}

func isBlank(l string) bool { return indentOf(l) == len(l) }

// parseBlocks parses lines into blocks. blankBetween reports a blank line
// between two of the blocks, which makes a list item loose.
func parseBlocks(lines []string, depth int) (bs []block, blankBetween bool) {
	blank := false
	for i := 0; i < len(lines); {
		l := lines[i]
		ind := indentOf(l)
		if ind == len(l) {
			blank = true
			i++
			continue
		}
		if blank && len(bs) > 0 {
			blankBetween = true
		}
		blank = false
		var b block
		switch rest := l[ind:]; {
		case ind >= 4:
			b, i = parseIndentedCode(lines, i)
		case isFenceStart(rest):
			b, i = parseFenced(lines, i)
		case rest[0] == '#' && isATX(rest):
			b = atxHeading(rest)
			i++
		case isThematicBreak(rest):
			b = block{kind: bRule}
			i++
		case rest[0] == '>' && depth < maxNesting:
			b, i = parseQuote(lines, i, depth)
		case depth < maxNesting && isMarker(l):
			b, i = parseList(lines, i, depth)
		case rest[0] == '<' && isHTMLStart(rest):
			b, i = parseHTML(lines, i)
		case i+1 < len(lines) && isTableStart(l, lines[i+1]):
			b, i = parseTable(lines, i)
		default:
			b, i = parseParagraph(lines, i)
		}
		bs = append(bs, b)
	}
	return bs, blankBetween
}

func parseIndentedCode(lines []string, i int) (block, int) {
	var code []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if isBlank(l) {
			code = append(code, "")
			continue
		}
		if indentOf(l) < 4 {
			break
		}
		code = append(code, l[4:])
	}
	// Trailing blank lines are not code; leave them to the caller, which
	// needs to see them (a blank line between blocks makes a list loose).
	for len(code) > 0 && code[len(code)-1] == "" {
		code = code[:len(code)-1]
		i--
	}
	return block{kind: bCode, lines: code}, i
}

// fence describes an opening code fence.
type fence struct {
	ch     byte
	n      int
	indent int
	info   string
}

func isFenceStart(rest string) bool {
	_, ok := fenceOpen(rest, 0)
	return ok
}

func fenceOpen(rest string, indent int) (fence, bool) {
	c := rest[0]
	if c != '`' && c != '~' {
		return fence{}, false
	}
	j := runEnd(rest, 0, c)
	if j < 3 {
		return fence{}, false
	}
	info := strings.Trim(rest[j:], " ")
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return fence{}, false
	}
	if k := strings.IndexByte(info, ' '); k >= 0 {
		info = info[:k]
	}
	return fence{ch: c, n: j, indent: indent, info: unescape(info)}, true
}

func (f fence) closes(l string) bool {
	ind := indentOf(l)
	if ind >= 4 || ind == len(l) {
		return false
	}
	j := runEnd(l, ind, f.ch)
	return j-ind >= f.n && isBlank(l[j:])
}

func parseFenced(lines []string, i int) (block, int) {
	ind := indentOf(lines[i])
	f, _ := fenceOpen(lines[i][ind:], ind)
	b := block{kind: bCode, info: f.info}
	for i++; i < len(lines); i++ {
		l := lines[i]
		if f.closes(l) {
			return b, i + 1
		}
		b.lines = append(b.lines, l[min(indentOf(l), f.indent):])
	}
	// Unclosed: the block runs to the end, less trailing blank lines.
	for len(b.lines) > 0 && isBlank(b.lines[len(b.lines)-1]) {
		b.lines = b.lines[:len(b.lines)-1]
		i--
	}
	return b, i
}

func isATX(rest string) bool {
	j := runEnd(rest, 0, '#')
	return j <= 6 && (j == len(rest) || rest[j] == ' ')
}

func atxHeading(rest string) block {
	j := runEnd(rest, 0, '#')
	t := strings.Trim(rest[j:], " ")
	k := len(t)
	for k > 0 && t[k-1] == '#' {
		k--
	}
	if k == 0 {
		t = ""
	} else if t[k-1] == ' ' {
		t = strings.TrimRight(t[:k], " ")
	}
	return block{kind: bHeading, level: j, text: t}
}

func isThematicBreak(rest string) bool {
	c := rest[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// setextLevel returns 1 or 2 when l underlines a setext heading.
func setextLevel(l string) int {
	ind := indentOf(l)
	if ind >= 4 || ind == len(l) {
		return 0
	}
	rest := strings.TrimRight(l[ind:], " ")
	c := rest[0]
	if c != '=' && c != '-' {
		return 0
	}
	if runEnd(rest, 0, c) != len(rest) {
		return 0
	}
	if c == '=' {
		return 1
	}
	return 2
}

// marker is a parsed list item marker line.
type marker struct {
	indent        int    // columns before the marker
	contentIndent int    // columns before the item's content
	content       string // the rest of the first line
	ordered       bool
	num           int
	ch            byte // the bullet, or '.' / ')' after the number
}

func isMarker(l string) bool {
	_, ok := parseMarker(l)
	return ok
}

func parseMarker(l string) (marker, bool) {
	ind := indentOf(l)
	if ind == len(l) {
		return marker{}, false
	}
	m := marker{indent: ind}
	i := ind
	switch c := l[i]; {
	case c == '-' || c == '+' || c == '*':
		m.ch = c
		i++
	case isDigit(c):
		j := i
		for j < len(l) && isDigit(l[j]) {
			j++
		}
		if j-i > 9 || j >= len(l) || (l[j] != '.' && l[j] != ')') {
			return marker{}, false
		}
		m.num, _ = strconv.Atoi(l[i:j])
		m.ordered, m.ch = true, l[j]
		i = j + 1
	default:
		return marker{}, false
	}
	if i < len(l) && l[i] != ' ' {
		return marker{}, false
	}
	sp := indentOf(l[i:])
	switch {
	case i+sp == len(l):
		m.contentIndent = i + 1
	case sp > 4:
		m.contentIndent = i + 1
		m.content = l[i+1:]
	default:
		m.contentIndent = i + sp
		m.content = l[i+sp:]
	}
	return m, true
}

// interrupts reports whether l ends a paragraph (or refuses to be a lazy
// continuation line of one).
func interrupts(l string) bool {
	ind := indentOf(l)
	if ind == len(l) {
		return true
	}
	if ind >= 4 {
		return false
	}
	rest := l[ind:]
	switch rest[0] {
	case '#':
		if isATX(rest) {
			return true
		}
	case '`', '~':
		if isFenceStart(rest) {
			return true
		}
	case '>':
		return true
	case '<':
		if isHTMLStart(rest) {
			return true
		}
	}
	if isThematicBreak(rest) {
		return true
	}
	m, ok := parseMarker(l)
	return ok && m.content != "" && (!m.ordered || m.num == 1)
}

func parseQuote(lines []string, i, depth int) (block, int) {
	var inner []string
	for ; i < len(lines); i++ {
		l := lines[i]
		ind := indentOf(l)
		if ind < 4 && ind < len(l) && l[ind] == '>' {
			inner = append(inner, strings.TrimPrefix(l[ind+1:], " "))
			continue
		}
		// A lazy continuation line: it carries on the quote's last
		// paragraph without the '>'.
		if len(inner) > 0 && !isBlank(inner[len(inner)-1]) && !interrupts(l) {
			inner = append(inner, l[ind:])
			continue
		}
		break
	}
	children, _ := parseBlocks(inner, depth+1)
	return block{kind: bQuote, children: children}, i
}

func sameList(a, b marker) bool { return a.ordered == b.ordered && a.ch == b.ch }

// parseList parses consecutive items of one list. Besides CommonMark's
// rule (content indented to the item's content column belongs to the
// item), a list marker indented at least two columns past the item's own
// marker nests under it: models often indent sub-lists by two under "1.".
func parseList(lines []string, i, depth int) (block, int) {
	first, _ := parseMarker(lines[i])
	l := &list{ordered: first.ordered, start: first.num, delim: first.ch}
	gap := false  // a blank line ended the previous item
	trailing := 0 // how many
	for i < len(lines) {
		m, ok := parseMarker(lines[i])
		if !ok || m.indent >= 4 || !sameList(first, m) {
			break
		}
		if len(l.items) > 0 && gap {
			l.loose = true
		}
		if isThematicBreak(lines[i][m.indent:]) {
			break
		}
		itemLines := []string{m.content}
		for i++; i < len(lines); i++ {
			ln := lines[i]
			ind := indentOf(ln)
			if ind == len(ln) {
				itemLines = append(itemLines, "")
				continue
			}
			if ind >= m.contentIndent {
				itemLines = append(itemLines, ln[m.contentIndent:])
				continue
			}
			if isMarker(ln) {
				if ind >= m.indent+2 && !isThematicBreak(ln[ind:]) {
					itemLines = append(itemLines, ln[ind:])
					continue
				}
				break
			}
			if !isBlank(itemLines[len(itemLines)-1]) && !interrupts(ln) {
				itemLines = append(itemLines, ln[ind:])
				continue
			}
			break
		}
		trailing = 0
		for len(itemLines) > 1 && itemLines[len(itemLines)-1] == "" {
			itemLines = itemLines[:len(itemLines)-1]
			trailing++
		}
		gap = trailing > 0
		children, blankInside := parseBlocks(itemLines, depth+1)
		if blankInside {
			l.loose = true
		}
		item := listItem{children: children}
		if len(children) > 0 && children[0].kind == bPara {
			item.task, children[0].text = taskBox(children[0].text)
			if item.task != taskNone && children[0].text == "" {
				item.children = children[1:]
			}
		}
		l.items = append(l.items, item)
	}
	// The blank lines after the last item belong to the caller.
	return block{kind: bList, list: l}, i - trailing
}

// taskBox recognises a task list item's "[ ] " or "[x] ".
func taskBox(t string) (int8, string) {
	if len(t) < 3 || t[0] != '[' || t[2] != ']' || (len(t) > 3 && t[3] != ' ' && t[3] != '\n') {
		return taskNone, t
	}
	var task int8
	switch t[1] {
	case ' ':
		task = taskTodo
	case 'x', 'X':
		task = taskDone
	default:
		return taskNone, t
	}
	return task, strings.TrimLeft(t[3:], " \n")
}

// isHTMLStart recognises the HTML blocks that can begin a block (and end a
// paragraph): comments, processing instructions, declarations, and block
// level tags.
func isHTMLStart(rest string) bool {
	if len(rest) < 2 || rest[0] != '<' {
		return false
	}
	r := rest[1:]
	if strings.HasPrefix(r, "!--") || r[0] == '?' || (r[0] == '!' && len(r) > 1 && isAlpha(r[1])) {
		return true
	}
	if r[0] == '/' {
		r = r[1:]
	}
	j := 0
	for j < len(r) && isAlnum(r[j]) {
		j++
	}
	if j == 0 || (j < len(r) && r[j] != ' ' && r[j] != '>' && !strings.HasPrefix(r[j:], "/>")) {
		return false
	}
	return isBlockTag(strings.ToLower(r[:j]))
}

func isBlockTag(t string) bool {
	switch t {
	case "address", "article", "aside", "blockquote", "body", "center", "details", "dialog", "dd", "div",
		"dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
		"h6", "head", "header", "hr", "html", "iframe", "li", "main", "nav", "ol", "p", "pre", "script",
		"section", "style", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul":
		return true
	}
	return false
}

func parseHTML(lines []string, i int) (block, int) {
	b := block{kind: bHTML}
	for ; i < len(lines) && !isBlank(lines[i]); i++ {
		b.lines = append(b.lines, lines[i])
	}
	return b, i
}

func parseParagraph(lines []string, i int) (block, int) {
	para := []string{lines[i][indentOf(lines[i]):]}
	for i++; i < len(lines); i++ {
		l := lines[i]
		if lvl := setextLevel(l); lvl > 0 {
			return block{kind: bHeading, level: lvl, text: joinPara(para)}, i + 1
		}
		if interrupts(l) || (i+1 < len(lines) && isTableStart(l, lines[i+1])) {
			break
		}
		para = append(para, l[indentOf(l):])
	}
	return block{kind: bPara, text: joinPara(para)}, i
}

// joinPara joins paragraph lines for inline parsing; trailing spaces stay
// on all but the last line, where they would make a hard break.
func joinPara(lines []string) string {
	lines[len(lines)-1] = strings.TrimRight(lines[len(lines)-1], " ")
	if len(lines) == 1 {
		return lines[0]
	}
	return strings.Join(lines, "\n")
}

// PlainLine makes one line of text safe to print as it is: tabs expanded,
// newlines and control characters (terminal escapes among them) dropped.
// Diffs and commands shown verbatim go through it.
func PlainLine(s string) string { return clean(expandTabs(s), true) }
