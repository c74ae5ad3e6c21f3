package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// spanKind tells the wrapper how to treat a span's spaces.
type spanKind uint8

const (
	spanText  spanKind = iota // runs of spaces collapse to one
	spanCode                  // runs of spaces are kept (but may still break)
	spanBreak                 // a hard line break; text is empty
)

// span is inline text in a set of roles: the output of inline parsing and
// the input of wrapping.
type span struct {
	text string
	m    mask
	kind spanKind
}

// maxInlineDepth bounds the nesting of link text and image descriptions
// parsed inside each other.
const maxInlineDepth = 4

type nodeKind uint8

const (
	nText nodeKind = iota
	nCode
	nDelim
	nSoft
	nHard
	nSpans
)

// Emphasis kinds, indexes of inode.opens and inode.closes.
const (
	emItalic = iota
	emBold
	emStrike
	numEm
)

// inode is one piece of a paragraph while emphasis is being resolved.
type inode struct {
	kind nodeKind
	text string // nText, nCode; for nDelim the whole run
	sub  []span // nSpans: a link, image or autolink

	// Delimiter runs (nDelim) of '*', '_' or "~~", kept on a doubly linked
	// stack (prev, next: node indexes, -1 at the ends) while emphasis is
	// processed. n counts the characters not yet used by a match;
	// opens and closes count the emphasis each match started or ended here.
	ch                byte
	canOpen, canClose bool
	n, orig           int32
	prev, next        int32
	opens, closes     [numEm]int32
}

// inlineParser turns the text of one paragraph, heading or table cell into
// spans: code spans, links and autolinks first, in one left-to-right scan,
// then emphasis by CommonMark's delimiter algorithm.
type inlineParser struct {
	s        string
	depth    int
	inLink   bool // link text: no links inside (images are fine)
	nodes    []inode
	brackets map[int]int // '[' index -> matching ']' index
	codeFail map[int]int // backtick run length -> position from which no closing run exists
}

// parseInline returns the spans of s. Its roles are those of the inline
// markup only; the caller adds the block's.
func parseInline(s string, depth int, inLink bool) []span {
	p := inlineParser{s: s, depth: depth, inLink: inLink}
	p.nodes = make([]inode, 0, 4+len(s)/16)
	p.scan()
	p.emphasis()
	return p.flatten()
}

func (p *inlineParser) text(t string) {
	if t != "" {
		p.nodes = append(p.nodes, inode{kind: nText, text: t})
	}
}

func (p *inlineParser) scan() {
	s := p.s
	if p.depth < maxInlineDepth && strings.IndexByte(s, '[') >= 0 {
		p.matchBrackets()
	}
	start, i := 0, 0
	for i < len(s) {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				p.text(s[start:i])
				p.nodes = append(p.nodes, inode{kind: nHard})
				i = skipSpaces(s, i+2)
				start = i
				continue
			}
			if i+1 < len(s) && isASCIIPunct(s[i+1]) {
				p.text(s[start:i])
				p.text(s[i+1 : i+2])
				i += 2
				start = i
				continue
			}
			i++
		case '`':
			j := runEnd(s, i, '`')
			n := j - i
			if end := p.codeClose(j, n); end >= 0 {
				p.text(s[start:i])
				p.nodes = append(p.nodes, inode{kind: nCode, text: codeContent(s[j:end])})
				i = end + n
				start = i
				continue
			}
			i = j // the run is literal text
		case '*', '_', '~':
			j := runEnd(s, i, c)
			if c == '~' && j-i != 2 {
				i = j
				continue
			}
			p.text(s[start:i])
			p.delim(i, j)
			i = j
			start = i
		case '!':
			if i+1 < len(s) && s[i+1] == '[' {
				if sub, end, ok := p.link(i+1, true); ok {
					p.text(s[start:i])
					p.nodes = append(p.nodes, inode{kind: nSpans, sub: sub})
					i = end
					start = i
					continue
				}
			}
			i++
		case '[':
			if !p.inLink {
				if sub, end, ok := p.link(i, false); ok {
					p.text(s[start:i])
					p.nodes = append(p.nodes, inode{kind: nSpans, sub: sub})
					i = end
					start = i
					continue
				}
			}
			i++
		case '<':
			if url, end, ok := autolink(s, i); ok {
				p.text(s[start:i])
				p.nodes = append(p.nodes, inode{kind: nSpans, sub: []span{{text: url, m: bit(rLink)}}})
				i = end
				start = i
				continue
			}
			i++
		case '&':
			if r, end, ok := entity(s, i); ok {
				p.text(s[start:i])
				p.text(r)
				i = end
				start = i
				continue
			}
			i++
		case '\n':
			k := i
			for k > start && s[k-1] == ' ' {
				k--
			}
			p.text(s[start:k])
			if i-k >= 2 {
				p.nodes = append(p.nodes, inode{kind: nHard})
			} else {
				p.nodes = append(p.nodes, inode{kind: nSoft})
			}
			i = skipSpaces(s, i+1)
			start = i
		default:
			i++
		}
	}
	p.text(s[start:])
}

// delim records the delimiter run s[i:j] with its flanking.
func (p *inlineParser) delim(i, j int) {
	s := p.s
	before, after := ' ', ' '
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if j < len(s) {
		after, _ = utf8.DecodeRuneInString(s[j:])
	}
	spB, spA := unicode.IsSpace(before), unicode.IsSpace(after)
	puB, puA := isPunct(before), isPunct(after)
	left := !spA && (!puA || spB || puB)
	right := !spB && (!puB || spA || puA)
	n := int32(min(j-i, 1<<30))
	nd := inode{kind: nDelim, text: s[i:j], ch: s[i], n: n, orig: n, prev: -1, next: -1}
	if s[i] == '_' {
		nd.canOpen = left && (!right || puB)
		nd.canClose = right && (!left || puA)
	} else {
		nd.canOpen, nd.canClose = left, right
	}
	if nd.canOpen || nd.canClose {
		p.nodes = append(p.nodes, nd)
	} else {
		p.text(nd.text)
	}
}

// emphasis matches delimiter runs into emphasis, strong emphasis and
// strikethrough, following CommonMark's "process emphasis" procedure
// (with its openers_bottom bound, so it stays linear on hostile input).
func (p *inlineParser) emphasis() {
	first, last := int32(-1), int32(-1)
	for i := range int32(len(p.nodes)) {
		if p.nodes[i].kind != nDelim {
			continue
		}
		p.nodes[i].prev = last
		if last >= 0 {
			p.nodes[last].next = i
		} else {
			first = i
		}
		last = i
	}
	if first < 0 {
		return
	}
	nodes := p.nodes
	unlink := func(i int32) {
		if pr := nodes[i].prev; pr >= 0 {
			nodes[pr].next = nodes[i].next
		}
		if nx := nodes[i].next; nx >= 0 {
			nodes[nx].prev = nodes[i].prev
		}
	}
	var bottom [3][3][2]int32
	for a := range bottom {
		for b := range bottom[a] {
			bottom[a][b] = [2]int32{-1, -1}
		}
	}
	chIdx := func(c byte) int {
		switch c {
		case '*':
			return 0
		case '_':
			return 1
		}
		return 2
	}
	for cur := first; cur >= 0; {
		c := &nodes[cur]
		if !c.canClose {
			cur = c.next
			continue
		}
		ci, op := chIdx(c.ch), 0
		if c.canOpen {
			op = 1
		}
		lo := bottom[ci][c.orig%3][op]
		o := c.prev
		for ; o >= 0 && o > lo; o = nodes[o].prev {
			on := &nodes[o]
			if on.ch != c.ch || !on.canOpen {
				continue
			}
			if c.ch != '~' && (on.canClose || c.canOpen) &&
				(on.orig+c.orig)%3 == 0 && (on.orig%3 != 0 || c.orig%3 != 0) {
				continue
			}
			break
		}
		if o < 0 || o <= lo {
			bottom[ci][c.orig%3][op] = c.prev
			next := c.next
			if !c.canOpen {
				unlink(cur)
			}
			cur = next
			continue
		}
		on := &nodes[o]
		use, kind := int32(1), emItalic
		switch {
		case c.ch == '~':
			use, kind = c.n, emStrike
		case on.n >= 2 && c.n >= 2:
			use, kind = 2, emBold
		}
		on.n -= use
		c.n -= use
		on.opens[kind]++
		c.closes[kind]++
		// Delimiters between the two can no longer match anything.
		on.next, c.prev = cur, o
		if on.n == 0 {
			unlink(o)
		}
		if c.n == 0 {
			next := c.next
			unlink(cur)
			cur = next
		}
	}
}

// flatten walks the nodes, turning matched delimiters into roles.
func (p *inlineParser) flatten() []span {
	out := make([]span, 0, len(p.nodes))
	var depth [numEm]int32
	roles := func() mask {
		var m mask
		if depth[emItalic] > 0 {
			m |= bit(rItalic)
		}
		if depth[emBold] > 0 {
			m |= bit(rBold)
		}
		if depth[emStrike] > 0 {
			m |= bit(rStrike)
		}
		return m
	}
	for i := range p.nodes {
		nd := &p.nodes[i]
		switch nd.kind {
		case nText:
			out = append(out, span{text: nd.text, m: roles()})
		case nCode:
			out = append(out, span{text: nd.text, m: roles() | bit(rCode), kind: spanCode})
		case nSoft:
			out = append(out, span{text: " ", m: roles()})
		case nHard:
			out = append(out, span{kind: spanBreak})
		case nSpans:
			m := roles()
			for _, sp := range nd.sub {
				sp.m |= m
				out = append(out, sp)
			}
		case nDelim:
			for k := range depth {
				depth[k] -= nd.closes[k]
			}
			if nd.n > 0 {
				out = append(out, span{text: nd.text[:nd.n], m: roles()})
			}
			for k := range depth {
				depth[k] += nd.opens[k]
			}
		}
	}
	return out
}

// link parses a link or image whose text opens at s[open] == '['. It
// returns the spans to show and the index after the closing parenthesis.
func (p *inlineParser) link(open int, image bool) ([]span, int, bool) {
	if p.depth >= maxInlineDepth {
		return nil, 0, false
	}
	s := p.s
	end, ok := p.brackets[open]
	if !ok || end+1 >= len(s) || s[end+1] != '(' {
		return nil, 0, false
	}
	dest, after, ok := linkTail(s, end+2)
	if !ok {
		return nil, 0, false
	}
	inner := parseInline(s[open+1:end], p.depth+1, true)
	if image {
		alt := plainText(inner)
		if alt == "" {
			return []span{{text: "[image]", m: bit(rImage)}}, after, true
		}
		return []span{{text: "[image: " + alt + "]", m: bit(rImage)}}, after, true
	}
	for i := range inner {
		inner[i].m |= bit(rLink)
	}
	if len(inner) == 0 {
		if dest == "" {
			return nil, after, true
		}
		return []span{{text: dest, m: bit(rLink)}}, after, true
	}
	if plain := plainText(inner); dest != "" && dest != plain && dest != "mailto:"+plain {
		inner = append(inner, span{text: " "}, span{text: "(" + dest + ")", m: bit(rLinkURL)})
	}
	return inner, after, true
}

// matchBrackets pairs '[' with ']' for the whole text in one pass, skipping
// escapes and code spans, so finding a link's text never rescans.
func (p *inlineParser) matchBrackets() {
	s := p.s
	p.brackets = map[int]int{}
	var stack []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && isASCIIPunct(s[i+1]) {
				i++
			}
		case '`':
			j := runEnd(s, i, '`')
			if end := p.codeClose(j, j-i); end >= 0 {
				i = end + (j - i) - 1
			} else {
				i = j - 1
			}
		case '[':
			stack = append(stack, i)
		case ']':
			if len(stack) > 0 {
				p.brackets[stack[len(stack)-1]] = i
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// codeClose returns the index of the backtick run of exactly n that closes
// a code span opened before from, or -1. A failed search is remembered: no
// later search for the same length can succeed either.
func (p *inlineParser) codeClose(from, n int) int {
	if f, ok := p.codeFail[n]; ok && from >= f {
		return -1
	}
	s := p.s
	for i := from; i < len(s); {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		k += i
		j := runEnd(s, k, '`')
		if j-k == n {
			return k
		}
		i = j
	}
	if p.codeFail == nil {
		p.codeFail = map[int]int{}
	}
	if f, ok := p.codeFail[n]; !ok || from < f {
		p.codeFail[n] = from
	}
	return -1
}

// codeContent normalises the inside of a code span: line breaks become
// spaces and one space is stripped from each end when both have one.
func codeContent(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		s = s[1 : len(s)-1]
	}
	return s
}

// Link destinations and titles longer than maxLinkPart, or destinations
// with parentheses nested deeper than maxLinkParens, are not links. The
// bounds keep a run of unfinished links ("[a](" repeated) from costing
// time quadratic in the paragraph's length.
const (
	maxLinkPart   = 2048
	maxLinkParens = 32
)

// linkTail parses `dest "title")` starting after a link's '('. It returns
// the unescaped destination and the index after ')'.
func linkTail(s string, i int) (string, int, bool) {
	if len(s)-i > 2*maxLinkPart+8 {
		s = s[:i+2*maxLinkPart+8]
	}
	i = skipWhite(s, i)
	var dest string
	if i < len(s) && s[i] == '<' {
		j := i + 1
		for j < len(s) && s[j] != '>' && s[j] != '<' && s[j] != '\n' {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			j++
		}
		if j >= len(s) || s[j] != '>' {
			return "", 0, false
		}
		dest, i = s[i+1:j], j+1
	} else {
		s := s[:min(len(s), i+maxLinkPart)]
		depth, j := 0, i
	loop:
		for j < len(s) {
			switch c := s[j]; {
			case c == '\\' && j+1 < len(s) && isASCIIPunct(s[j+1]):
				j += 2
				continue
			case c == '(':
				if depth++; depth > maxLinkParens {
					return "", 0, false
				}
			case c == ')':
				if depth == 0 {
					break loop
				}
				depth--
			case c <= ' ':
				break loop
			}
			j++
		}
		if depth != 0 {
			return "", 0, false
		}
		dest, i = s[i:j], j
	}
	k := skipWhite(s, i)
	if k < len(s) && k > i && (s[k] == '"' || s[k] == '\'' || s[k] == '(') {
		closer := s[k]
		if closer == '(' {
			closer = ')'
		}
		j := k + 1
		for j < len(s) && s[j] != closer {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			j++
		}
		if j >= len(s) {
			return "", 0, false
		}
		k = skipWhite(s, j+1)
	}
	if k >= len(s) || s[k] != ')' {
		return "", 0, false
	}
	return unescape(dest), k + 1, true
}

// autolink parses <scheme:…> or <user@host> at s[i] == '<'.
func autolink(s string, i int) (string, int, bool) {
	j := i + 1
	k := j
	for k < len(s) && k-j <= 32 && (isAlnum(s[k]) || s[k] == '+' || s[k] == '.' || s[k] == '-') {
		k++
	}
	if k-j >= 2 && k < len(s) && s[k] == ':' && isAlpha(s[j]) {
		m := k + 1
		for m < len(s) && s[m] > ' ' && s[m] != '<' && s[m] != '>' {
			m++
		}
		if m < len(s) && s[m] == '>' {
			return s[j:m], m + 1, true
		}
		return "", 0, false
	}
	k = j
	for k < len(s) && (isAlnum(s[k]) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", s[k]) >= 0) {
		k++
	}
	if k == j || k >= len(s) || s[k] != '@' {
		return "", 0, false
	}
	m := k + 1
	for m < len(s) && (isAlnum(s[m]) || s[m] == '-' || s[m] == '.') {
		m++
	}
	if m > k+1 && m < len(s) && s[m] == '>' {
		return s[j:m], m + 1, true
	}
	return "", 0, false
}

// entity decodes a numeric character reference or one of the named entity
// references models actually write, at s[i] == '&'.
func entity(s string, i int) (string, int, bool) {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if hex {
			j++
		}
		start, v := j, 0
		for j < len(s) && j-start < 7 {
			d := hexDigit(s[j])
			if d < 0 || (!hex && d > 9) {
				break
			}
			if hex {
				v = v*16 + d
			} else {
				v = v*10 + d
			}
			j++
		}
		if j == start || j >= len(s) || s[j] != ';' {
			return "", 0, false
		}
		r := rune(v)
		if v == 0 || !utf8.ValidRune(r) || isControl(r) {
			r = utf8.RuneError
		}
		return string(r), j + 1, true
	}
	start := j
	for j < len(s) && j-start < 10 && isAlnum(s[j]) {
		j++
	}
	if j == start || j >= len(s) || s[j] != ';' {
		return "", 0, false
	}
	var r string
	switch s[start:j] {
	case "amp":
		r = "&"
	case "lt":
		r = "<"
	case "gt":
		r = ">"
	case "quot":
		r = "\""
	case "apos":
		r = "'"
	case "nbsp":
		r = "\u00a0"
	case "copy":
		r = "©"
	case "reg":
		r = "®"
	case "trade":
		r = "™"
	case "hellip":
		r = "…"
	case "mdash":
		r = "—"
	case "ndash":
		r = "–"
	case "larr":
		r = "←"
	case "rarr":
		r = "→"
	case "uarr":
		r = "↑"
	case "darr":
		r = "↓"
	case "harr":
		r = "↔"
	case "times":
		r = "×"
	case "middot":
		r = "·"
	case "bull":
		r = "•"
	case "deg":
		r = "°"
	case "plusmn":
		r = "±"
	case "ne":
		r = "≠"
	case "le":
		r = "≤"
	case "ge":
		r = "≥"
	case "laquo":
		r = "«"
	case "raquo":
		r = "»"
	case "ldquo":
		r = "“"
	case "rdquo":
		r = "”"
	case "lsquo":
		r = "‘"
	case "rsquo":
		r = "’"
	default:
		return "", 0, false
	}
	return r, j + 1, true
}

// plainText joins the text of spans, hard breaks as spaces.
func plainText(sp []span) string {
	if len(sp) == 1 {
		return sp[0].text
	}
	var b strings.Builder
	for _, s := range sp {
		if s.kind == spanBreak {
			b.WriteByte(' ')
		} else {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// unescape removes backslashes before ASCII punctuation.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func runEnd(s string, i int, c byte) int {
	for i < len(s) && s[i] == c {
		i++
	}
	return i
}

func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

func skipWhite(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	return i
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// isPunct is CommonMark's Unicode punctuation: categories P and S.
func isPunct(r rune) bool {
	if r < 0x80 {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

func hexDigit(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// isControl reports the characters never passed through to the terminal:
// C0 and C1 controls and DEL (tab and newline are handled before).
func isControl(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f
}
