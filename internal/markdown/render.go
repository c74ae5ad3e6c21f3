// Package markdown renders the markdown that language models write as
// styled, wrapped terminal text.
//
// ponder has its own renderer because the usual one, glamour, links chroma
// for syntax highlighting, and chroma's package initialisers take about
// 12 ms on every start of the binary: more than ponder's whole start-up
// budget, and Go cannot defer a package's initialisation. This package has
// no initialisation work of its own (no package-level tables or regular
// expressions) and covers the subset of CommonMark and GFM that models
// produce: headings, paragraphs, emphasis, code, links, lists and task
// lists, quotes, rules, tables and fenced code, without highlighting.
//
// Layout rules:
//   - Text is word-wrapped by display width (wide characters count two);
//     a word wider than the line is broken between grapheme clusters.
//   - Code lines are never wrapped, which would make code unreadable: a
//     code line wider than the space left is cut and ends in "…".
//   - Links show as their text followed by the destination in parentheses,
//     "text (url)", unless the two are the same; images as "[image: alt]".
//   - HTML is printed as text.
//   - Every styled piece of a line is closed on that line, so lines can be
//     cut, reordered or indented by the caller independently.
//   - Control characters in the input are dropped, so the input can never
//     send escape sequences of its own to the terminal.
//   - With width > 0 no line is wider than width, whatever the input.
package markdown

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Render renders src as terminal text wrapped to width columns (width <= 0:
// no wrapping) in the styles of theme. Lines are separated by "\n", with no
// newline after the last.
//
// It never panics, and with width > 0 no line is wider than width:
// paragraphs wrap, long words and URLs break, tables shrink their columns,
// and code lines are cut with "…" rather than wrapped.
func Render(src string, width int, theme Theme) string {
	return safeRender(compile(theme), src, width)
}

// Renderer renders with one theme and caches its results: rendering the
// same (src, width) again returns the cached string. It suits conversation
// history, where most messages never change while the newest one streams.
//
// The cache keeps the most recently used renders, a bounded number of
// entries and bytes, so streaming (a new src on every update) and window
// resizes (a new width) cannot grow it without limit. A Renderer is safe
// for concurrent use.
type Renderer struct {
	st *styles

	mu        sync.Mutex
	cur, prev map[cacheKey]string
	curBytes  int
}

type cacheKey struct {
	src   string
	width int
}

// Cache bounds, per generation: when the current generation fills up it
// becomes the previous one and the old previous one is dropped, so at most
// two generations are held, and an entry used in the last generation
// survives.
const (
	cacheEntries = 4096
	cacheBytes   = 32 << 20
)

// NewRenderer returns a Renderer drawing in the styles of theme.
func NewRenderer(theme Theme) *Renderer {
	return &Renderer{st: compile(theme), cur: map[cacheKey]string{}}
}

// Render renders src at width like the package's Render, from the cache
// when it can.
func (r *Renderer) Render(src string, width int) string {
	k := cacheKey{src, width}
	r.mu.Lock()
	if out, ok := r.cur[k]; ok {
		r.mu.Unlock()
		return out
	}
	if out, ok := r.prev[k]; ok {
		r.store(k, out)
		r.mu.Unlock()
		return out
	}
	r.mu.Unlock()

	out := safeRender(r.st, src, width)

	r.mu.Lock()
	r.store(k, out)
	r.mu.Unlock()
	return out
}

// store adds an entry to the current generation; r.mu is held.
func (r *Renderer) store(k cacheKey, out string) {
	size := len(k.src) + len(out)
	if len(r.cur) >= cacheEntries || r.curBytes+size > cacheBytes {
		r.prev, r.cur, r.curBytes = r.cur, make(map[cacheKey]string, len(r.cur)), 0
	}
	if _, ok := r.cur[k]; !ok {
		r.cur[k] = out
		r.curBytes += size
	}
}

// safeRender is render with a last line of defence: a bug must not take
// the terminal UI down, so a panic falls back to the source, cleaned and
// hard-wrapped. Tests call render directly so that they do see panics.
func safeRender(st *styles, src string, width int) (out string) {
	defer func() {
		if recover() != nil {
			out = fallback(src, width)
		}
	}()
	return render(st, src, width)
}

func fallback(src string, width int) string {
	lines := prepare(src)
	var out []string
	for _, l := range lines {
		for {
			if width <= 0 || textWidth(l) <= width {
				out = append(out, l)
				break
			}
			n, _ := fitPrefix(l, width)
			if n == 0 {
				n = firstCluster(l)
				if n >= len(l) {
					break
				}
				l = l[n:]
				continue
			}
			out = append(out, l[:n])
			l = l[n:]
		}
	}
	return strings.Join(out, "\n")
}

func render(st *styles, src string, width int) string {
	bs, _ := parseBlocks(prepare(src), 0)
	r := renderer{st: st}
	lines := r.blocks(bs, ctx{width: width})
	n := len(lines)
	for _, l := range lines {
		n += len(l)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r.clamp(l, width))
	}
	return b.String()
}

// clamp is the guarantee behind "no line wider than width". Layout keeps
// lines within width by construction, measuring each piece of text on its
// own; the one thing that can make a line wider than the sum of its pieces
// is a grapheme cluster joining across two pieces, which takes non-ASCII
// text. So lines whose only non-ASCII characters are the theme's own
// glyphs (which never join: a space always separates them from text) are
// trusted, and the others are measured and, in the rare case, cut.
func (r *renderer) clamp(l string, width int) string {
	if width <= 0 {
		return l
	}
	for i := 0; i < len(l); {
		if l[i] < 0x80 {
			i++
			continue
		}
		c, n := utf8.DecodeRuneInString(l[i:])
		i += n
		if r.st.isGlyph(c) {
			continue
		}
		// ansi.Truncate counts some clusters differently from
		// ansi.StringWidth, so cut until the measure agrees.
		for w := width; w >= 0 && ansi.StringWidth(l) > width; w-- {
			l = ansi.Truncate(l, w, "")
		}
		return l
	}
	return l
}

// renderer lays out parsed blocks.
type renderer struct {
	st *styles
	wr wrapper // scratch space reused by every wrap
}

// ctx is what a block is laid out in.
type ctx struct {
	width     int  // columns available; <= 0: unlimited
	base      mask // roles of all text inside (a quote's)
	tight     bool // no blank lines between blocks (a tight list item)
	listDepth int  // nesting of lists, which picks the bullet
}

// minContent is the narrowest a container (quote, list item) lets its
// content become; past it the container's indentation is dropped.
func minContent(width int) int { return max(1, min(width/2, 10)) }

func (r *renderer) blocks(bs []block, c ctx) []string {
	var out []string
	for i := range bs {
		if i > 0 && !c.tight {
			out = append(out, "")
		}
		out = append(out, r.block(&bs[i], c)...)
	}
	return out
}

func (r *renderer) block(b *block, c ctx) []string {
	st := r.st
	switch b.kind {
	case bPara:
		return strs(r.wrap(parseInline(b.text, 0, false), c.width, c.base))
	case bHeading:
		return r.heading(b, c)
	case bRule:
		w := c.width
		if w <= 0 {
			w = 40
		}
		return []string{st.styled(bit(rRule), strings.Repeat(st.g.rule, w))}
	case bCode:
		return r.code(b, c)
	case bQuote:
		return r.quote(b, c)
	case bList:
		return r.list(b.list, c)
	case bTable:
		return r.renderTable(b.table, c)
	case bHTML:
		var out []string
		for _, l := range b.lines {
			out = append(out, strs(r.wrap([]span{{text: l}}, c.width, c.base|bit(rHTML)))...)
		}
		return out
	}
	return nil
}

func (r *renderer) heading(b *block, c ctx) []string {
	rl := rHeading4
	switch b.level {
	case 1:
		rl = rHeading1
	case 2:
		rl = rHeading2
	case 3:
		rl = rHeading3
	}
	sp := parseInline(b.text, 0, false)
	if r.st.headingMarkers {
		sp = append([]span{{text: strings.Repeat("#", b.level) + " "}}, sp...)
	}
	return strs(r.wrap(sp, c.width, c.base|bit(rl)))
}

// code draws a code block behind a left border, under a "╭─ lang" label
// when it has an info string. Lines are verbatim (tabs expanded) and cut,
// not wrapped, when too wide.
func (r *renderer) code(b *block, c ctx) []string {
	st := r.st
	g := st.g
	barW := textWidth(g.codeBar) + 1
	avail, bar := c.width, true
	if c.width > 0 {
		if c.width-barW < minContent(c.width) {
			bar = false
		} else {
			avail = c.width - barW
		}
	}
	ellW := textWidth(g.ellipsis)
	var out []string
	if b.info != "" {
		top := g.codeTop + " "
		topW := textWidth(top)
		info := b.info
		if c.width > 0 {
			if topW >= c.width {
				top, topW = "", 0
			}
			info, _ = cutToWidth(info, c.width-topW, g.ellipsis, ellW)
		}
		out = append(out, st.styled(bit(rCodeBorder), top)+st.styled(bit(rCodeLabel), info))
	}
	lines := b.lines
	if len(lines) == 0 && b.info == "" {
		lines = []string{""}
	}
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if c.width > 0 {
			l, _ = cutToWidth(l, avail, g.ellipsis, ellW)
		}
		code := st.styled(bit(rCodeBlock), l)
		switch {
		case !bar:
			out = append(out, code)
		case l == "":
			out = append(out, st.styled(bit(rCodeBorder), g.codeBar))
		default:
			out = append(out, st.styled(bit(rCodeBorder), g.codeBar)+" "+code)
		}
	}
	return out
}

func (r *renderer) quote(b *block, c ctx) []string {
	st := r.st
	barW := textWidth(st.g.quoteBar) + 1
	inner := c
	inner.base |= bit(rQuote)
	inner.tight = false
	narrow := c.width > 0 && c.width-barW < minContent(c.width)
	if !narrow && c.width > 0 {
		inner.width = c.width - barW
	}
	lines := r.blocks(b.children, inner)
	if narrow {
		return lines
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	bar := st.styled(bit(rQuoteBar), st.g.quoteBar)
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = bar
		} else {
			out[i] = bar + " " + l
		}
	}
	return out
}

// list draws items behind their markers, wrapped and continuation lines
// aligned under the item's text. Ordered numbers are right-aligned ("9."
// over "10."); task items show a box in place of the bullet (after the
// number in ordered lists).
func (r *renderer) list(l *list, c ctx) []string {
	st := r.st
	type mk struct {
		s string
		w int
		m mask
	}
	marks := make([]mk, len(l.items))
	markW := 0
	bullet := c.listDepth % len(st.bullets)
	for i, it := range l.items {
		var k mk
		k.m = bit(rListMarker)
		if l.ordered {
			k.s = strconv.Itoa(l.start+i) + string(l.delim)
			k.w = len(k.s)
		} else {
			k.s, k.w = st.bullets[bullet], st.bulletW[bullet]
		}
		switch it.task {
		case taskTodo, taskDone:
			box, boxW := st.todo, st.todoW
			if it.task == taskDone {
				box, boxW = st.done, st.doneW
			}
			if l.ordered {
				k.s, k.w = k.s+" "+box, k.w+1+boxW
			} else {
				k.s, k.w = box, boxW
			}
			if it.task == taskDone && !l.ordered {
				k.m = bit(rTaskChecked)
			}
		}
		marks[i] = k
		markW = max(markW, k.w)
	}
	var out []string
	for i, it := range l.items {
		if i > 0 && l.loose {
			out = append(out, "")
		}
		// Ordered items share the widest number's column; bullets and
		// boxes are each followed by their own item's text.
		k := marks[i]
		w := k.w
		if l.ordered {
			w = markW
		}
		m := st.styled(k.m, k.s)
		switch {
		case l.ordered && it.task == taskDone:
			num := strings.TrimSuffix(k.s, " "+st.done)
			m = st.styled(bit(rListMarker), num) + " " + st.styled(bit(rTaskChecked), st.done)
			m += strings.Repeat(" ", w-k.w)
		case l.ordered && it.task == taskNone:
			m = strings.Repeat(" ", w-k.w) + m
		default:
			m += strings.Repeat(" ", w-k.w)
		}
		inner := ctx{width: c.width, base: c.base, tight: !l.loose, listDepth: c.listDepth + 1}
		narrow := c.width > 0 && c.width-(w+1) < minContent(c.width)
		if !narrow && c.width > 0 {
			inner.width = c.width - (w + 1)
		}
		children := r.blocks(it.children, inner)
		if narrow {
			// Too narrow to indent: the marker on a line of its own.
			s := k.s
			if c.width > 0 && k.w > c.width {
				s, _ = cutToWidth(s, c.width, "", 0)
			}
			out = append(out, st.styled(k.m, s))
			out = append(out, children...)
			continue
		}
		if len(children) == 0 {
			out = append(out, strings.TrimRight(m, " "))
			out = append(out, children...)
			continue
		}
		pad := strings.Repeat(" ", w+1)
		for j, ch := range children {
			switch {
			case j == 0 && ch == "":
				out = append(out, strings.TrimRight(m, " "))
			case j == 0:
				out = append(out, m+" "+ch)
			case ch == "":
				out = append(out, "")
			default:
				out = append(out, pad+ch)
			}
		}
	}
	return out
}
