package markdown

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Theme holds the style of every element the renderer draws, and the few
// glyphs that differ between a decorated and a plain rendering.
//
// Only the text attributes of each style are used: colours, bold, italic,
// underline, strikethrough, faint, reverse and blink. Layout properties
// (width, padding, margins, borders, alignment, transforms) are ignored,
// because the renderer does its own layout.
type Theme struct {
	// Heading1, Heading2 and Heading3 style headings of levels 1 to 3;
	// Heading4 styles levels 4 to 6.
	Heading1, Heading2, Heading3, Heading4 lipgloss.Style

	// Inline spans.
	Bold, Italic, Strikethrough, Code lipgloss.Style
	// Link styles link text and autolinks; LinkURL the "(url)" printed
	// after a link's text; Image the "[image: alt]" placeholder.
	Link, LinkURL, Image lipgloss.Style

	// Quote styles the text inside block quotes, QuoteBar the bar at their
	// left.
	Quote, QuoteBar lipgloss.Style
	// Rule styles horizontal rules.
	Rule lipgloss.Style
	// ListMarker styles bullets, numbers and unchecked task boxes;
	// TaskChecked styles checked task boxes.
	ListMarker, TaskChecked lipgloss.Style
	// CodeBlock styles the lines of code blocks, CodeBlockBorder their left
	// border and CodeBlockLabel the info string ("go") shown above them.
	CodeBlock, CodeBlockBorder, CodeBlockLabel lipgloss.Style
	// TableHeader styles header cells, TableBorder the grid.
	TableHeader, TableBorder lipgloss.Style
	// HTML styles raw HTML blocks, which are printed as text.
	HTML lipgloss.Style

	// HeadingMarkers prints "#", "##", … before headings, so that their
	// level shows without styling.
	HeadingMarkers bool
	// Bullets are the markers of unordered list items, by nesting depth
	// (cycled). Empty means "•".
	Bullets []string
	// TaskUncheckedBox and TaskCheckedBox mark the items of task lists.
	// Empty means "[ ]" and "[x]".
	TaskUncheckedBox, TaskCheckedBox string
}

// DefaultTheme returns the theme used on colour terminals. Its palette is a
// handful of mid-luminance xterm-256 colours that read on dark and light
// backgrounds alike, plus bold, italic and underline.
func DefaultTheme() Theme {
	n := lipgloss.NewStyle
	c := lipgloss.Color
	accent, code, link, grey, green := c("98"), c("37"), c("33"), c("245"), c("35")
	return Theme{
		Heading1:         n().Bold(true).Underline(true).Foreground(accent),
		Heading2:         n().Bold(true).Foreground(accent),
		Heading3:         n().Bold(true),
		Heading4:         n().Bold(true).Italic(true),
		Bold:             n().Bold(true),
		Italic:           n().Italic(true),
		Strikethrough:    n().Strikethrough(true),
		Code:             n().Foreground(code),
		Link:             n().Foreground(link).Underline(true),
		LinkURL:          n().Foreground(grey),
		Image:            n().Foreground(grey).Italic(true),
		Quote:            n().Italic(true),
		QuoteBar:         n().Foreground(grey),
		Rule:             n().Foreground(grey),
		ListMarker:       n().Foreground(grey),
		TaskChecked:      n().Foreground(green),
		CodeBlock:        n(),
		CodeBlockBorder:  n().Foreground(grey),
		CodeBlockLabel:   n().Foreground(grey).Italic(true),
		TableHeader:      n().Bold(true),
		TableBorder:      n().Foreground(grey),
		HTML:             n().Foreground(grey),
		Bullets:          []string{"•", "◦", "▪"},
		TaskUncheckedBox: "☐",
		TaskCheckedBox:   "☑",
	}
}

// PlainTheme returns a theme with no styling at all, for golden tests, logs
// and NO_COLOR. Headings keep their "#" markers and task boxes are ASCII so
// that the structure still shows.
func PlainTheme() Theme {
	return Theme{
		HeadingMarkers:   true,
		Bullets:          []string{"•", "◦", "▪"},
		TaskUncheckedBox: "[ ]",
		TaskCheckedBox:   "[x]",
	}
}

// role names one styled element. The order matters: when several roles
// apply to one piece of text their SGR sequences are written in this order,
// so a later role's colour wins (inline code inside a heading keeps its
// colour).
type role uint8

const (
	rHeading1 role = iota
	rHeading2
	rHeading3
	rHeading4
	rQuote
	rTableHeader
	rHTML
	rBold
	rItalic
	rStrike
	rLink
	rLinkURL
	rImage
	rCode
	rQuoteBar
	rRule
	rListMarker
	rTaskChecked
	rCodeBlock
	rCodeBorder
	rCodeLabel
	rTableBorder
	numRoles
)

// mask is a set of roles.
type mask uint32

func bit(r role) mask { return 1 << r }

// glyphs are the box-drawing pieces of the layout. All of them are one cell
// wide; asciiGlyphs replaces them where the terminal's width tables say
// otherwise (RUNEWIDTH_EASTASIAN makes box drawing two cells wide).
type glyphs struct {
	quoteBar, codeBar, codeTop, rule, ellipsis string
	h, v, tl, tm, tr, ml, mm, mr, bl, bm, br   string
}

func unicodeGlyphs() glyphs {
	return glyphs{
		quoteBar: "┃", codeBar: "│", codeTop: "╭─", rule: "─", ellipsis: "…",
		h: "─", v: "│", tl: "┌", tm: "┬", tr: "┐", ml: "├", mm: "┼", mr: "┤", bl: "└", bm: "┴", br: "┘",
	}
}

func asciiGlyphs() glyphs {
	return glyphs{
		quoteBar: "|", codeBar: "|", codeTop: "+-", rule: "-", ellipsis: "~",
		h: "-", v: "|", tl: "+", tm: "+", tr: "+", ml: "+", mm: "+", mr: "+", bl: "+", bm: "+", br: "+",
	}
}

// styles is a Theme compiled for rendering: the SGR prefix of every role,
// so that styling a piece of text is a string concatenation rather than a
// lipgloss render, and the glyphs with their measured widths.
type styles struct {
	pre            [numRoles]string
	g              glyphs
	headingMarkers bool
	bullets        []string
	bulletW        []int
	todo, done     string
	todoW, doneW   int
	glyphRunes     []rune // every rune of the glyphs above
}

// isGlyph reports whether c is part of one of the theme's glyphs.
func (st *styles) isGlyph(c rune) bool {
	for _, g := range st.glyphRunes {
		if g == c {
			return true
		}
	}
	return false
}

// reset ends every styled piece. Each piece is closed on its own, so any
// line (and any piece of a line) is valid without the ones before it.
const reset = "\x1b[m"

func compile(t Theme) *styles {
	st := &styles{headingMarkers: t.HeadingMarkers}
	src := [numRoles]lipgloss.Style{
		rHeading1: t.Heading1, rHeading2: t.Heading2, rHeading3: t.Heading3, rHeading4: t.Heading4,
		rQuote: t.Quote, rTableHeader: t.TableHeader, rHTML: t.HTML,
		rBold: t.Bold, rItalic: t.Italic, rStrike: t.Strikethrough, rLink: t.Link, rLinkURL: t.LinkURL,
		rImage: t.Image, rCode: t.Code, rQuoteBar: t.QuoteBar, rRule: t.Rule, rListMarker: t.ListMarker,
		rTaskChecked: t.TaskChecked, rCodeBlock: t.CodeBlock, rCodeBorder: t.CodeBlockBorder,
		rCodeLabel: t.CodeBlockLabel, rTableBorder: t.TableBorder,
	}
	for i := range src {
		st.pre[i] = sgrPrefix(src[i])
	}

	st.g = unicodeGlyphs()
	for _, s := range []string{st.g.quoteBar, st.g.codeBar, st.g.rule, st.g.ellipsis, st.g.h, st.g.v, st.g.mm} {
		if ansi.StringWidth(s) != 1 {
			st.g = asciiGlyphs()
			break
		}
	}

	for _, b := range t.Bullets {
		if b = glyph(b); b != "" {
			st.bullets = append(st.bullets, b)
			st.bulletW = append(st.bulletW, ansi.StringWidth(b))
		}
	}
	if len(st.bullets) == 0 {
		st.bullets, st.bulletW = []string{"•"}, []int{ansi.StringWidth("•")}
	}
	st.todo, st.done = glyph(t.TaskUncheckedBox), glyph(t.TaskCheckedBox)
	if st.todo == "" {
		st.todo = "[ ]"
	}
	if st.done == "" {
		st.done = "[x]"
	}
	st.todoW, st.doneW = ansi.StringWidth(st.todo), ansi.StringWidth(st.done)

	g := st.g
	all := append([]string{g.quoteBar, g.codeBar, g.codeTop, g.rule, g.ellipsis, g.h, g.v, g.tl, g.tm, g.tr,
		g.ml, g.mm, g.mr, g.bl, g.bm, g.br, st.todo, st.done}, st.bullets...)
	for _, s := range all {
		for _, c := range s {
			if c >= 0x80 && !st.isGlyph(c) {
				st.glyphRunes = append(st.glyphRunes, c)
			}
		}
	}
	return st
}

// glyph cleans a theme-supplied marker: one line, no control characters.
func glyph(s string) string {
	return strings.TrimSpace(sanitizeInline(s))
}

// sgrPrefix returns the escape sequence that turns on s's text attributes,
// or "" when s has none. It builds the sequence the way lipgloss's Render
// does (same attributes, same order; a test holds the two together) but
// without the rest of Render's work, which would cost more than rendering
// a short message.
func sgrPrefix(s lipgloss.Style) string {
	var te ansi.Style
	if s.GetBold() {
		te = te.Bold()
	}
	if s.GetItalic() {
		te = te.Italic(true)
	}
	if s.GetUnderline() {
		te = te.Underline(true)
	}
	if s.GetReverse() {
		te = te.Reverse(true)
	}
	if s.GetBlink() {
		te = te.Blink(true)
	}
	if s.GetFaint() {
		te = te.Faint()
	}
	if c := s.GetForeground(); isColor(c) {
		te = te.ForegroundColor(c)
	}
	if c := s.GetBackground(); isColor(c) {
		te = te.BackgroundColor(c)
	}
	if c := s.GetUnderlineColor(); isColor(c) {
		te = te.UnderlineColor(c)
	}
	if s.GetUnderline() {
		te = te.UnderlineStyle(s.GetUnderlineStyle())
	}
	if s.GetStrikethrough() {
		te = te.Strikethrough(true)
	}
	if len(te) == 0 {
		return ""
	}
	return te.String()
}

func isColor(c color.Color) bool {
	return c != nil && c != (lipgloss.NoColor{})
}

// open writes the escape sequences that turn on the roles of m and reports
// whether it wrote any (and so whether the text after must be reset).
func (st *styles) open(b *strings.Builder, m mask) bool {
	open := false
	for r := role(0); m != 0 && r < numRoles; r++ {
		if m&bit(r) == 0 {
			continue
		}
		m &^= bit(r)
		if p := st.pre[r]; p != "" {
			b.WriteString(p)
			open = true
		}
	}
	return open
}

// styled returns text in the roles of m, closed at its end.
func (st *styles) styled(m mask, text string) string {
	if m == 0 || text == "" {
		return text
	}
	var b strings.Builder
	open := st.open(&b, m)
	if !open {
		return text
	}
	b.WriteString(text)
	b.WriteString(reset)
	return b.String()
}
