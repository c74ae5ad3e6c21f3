// Command ansihtml turns a terminal screen captured with ANSI SGR colour
// codes (as `tmux capture-pane -e -p` prints it) into an HTML page that
// draws the same grid of cells, for a headless browser to photograph.
//
// Usage:
//
//	ansihtml [-cols 120] [-rows 40] [-cell-width 9] [-o page.html] [capture.ansi]
//
// It reads standard input when no file is given. With -size it prints the
// page's size in pixels as "W,H" on standard output, ready for Chromium's
// --window-size.
//
// Every cell is drawn at the same advance, so columns line up even where
// the font lacks a glyph: characters outside printable ASCII each get a box
// of exactly one (or two, for wide characters) cells and every run of ASCII
// text a box of exactly its cells, so a glyph from a fallback font cannot
// shift the rest of the line. "⎿", which no Debian font in reach draws
// well, is drawn with CSS. The line height is the font's own ascent plus
// descent, rounded down, so box-drawing characters join.
package main

import (
	"flag"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DejaVu Sans Mono's metrics, in font units: advance width of every glyph,
// ascender and descender (hhea), units per em.
const (
	fontAdvance = 1233.0
	fontAscent  = 1901.0
	fontDescent = 483.0
	fontUnits   = 2048.0
)

type rgb struct{ r, g, b uint8 }

func (c rgb) css() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// mix returns a blend of c and d, with weight w for c.
func mix(c, d rgb, w float64) rgb {
	f := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*w + float64(b)*(1-w))) }
	return rgb{f(c.r, d.r), f(c.g, d.g), f(c.b, d.b)}
}

var (
	defaultFG = rgb{0xcd, 0xd6, 0xf4}
	defaultBG = rgb{0x1e, 0x1e, 0x2e}
)

// ansi16 is the palette for colours 0-15: a dark theme's normal and bright
// colours (Catppuccin Mocha), readable on defaultBG.
var ansi16 = [16]rgb{
	{0x45, 0x47, 0x5a}, {0xf3, 0x8b, 0xa8}, {0xa6, 0xe3, 0xa1}, {0xf9, 0xe2, 0xaf},
	{0x89, 0xb4, 0xfa}, {0xf5, 0xc2, 0xe7}, {0x94, 0xe2, 0xd5}, {0xba, 0xc2, 0xde},
	{0x58, 0x5b, 0x70}, {0xf3, 0x8b, 0xa8}, {0xa6, 0xe3, 0xa1}, {0xf9, 0xe2, 0xaf},
	{0x89, 0xb4, 0xfa}, {0xf5, 0xc2, 0xe7}, {0x94, 0xe2, 0xd5}, {0xa6, 0xad, 0xc8},
}

// xterm256 returns colour n of the xterm 256-colour palette: the 16 theme
// colours, the 6×6×6 colour cube and the 24-step grey ramp.
func xterm256(n int) rgb {
	switch {
	case n < 16:
		return ansi16[n]
	case n < 232:
		n -= 16
		level := func(i int) uint8 {
			if i == 0 {
				return 0
			}
			return uint8(55 + 40*i)
		}
		return rgb{level(n / 36), level(n / 6 % 6), level(n % 6)}
	default:
		v := uint8(8 + 10*(n-232))
		return rgb{v, v, v}
	}
}

// colour is a cell colour: the default, or a set RGB value.
type colour struct {
	set bool
	rgb
}

type style struct {
	fg, bg                                          colour
	bold, faint, italic, underline, reverse, strike bool
	conceal                                         bool
}

type cell struct {
	ch    rune
	width int // 1, or 2 for a wide character (the next cell is then skipped)
	st    style
}

// parseExtColour reads the rest of a 38/48 sequence (5;N or 2;R;G;B)
// from params and returns the colour and how many parameters it used.
func parseExtColour(params []int) (colour, int) {
	if len(params) == 0 {
		return colour{}, 0
	}
	switch params[0] {
	case 5:
		if len(params) >= 2 && params[1] >= 0 && params[1] < 256 {
			return colour{true, xterm256(params[1])}, 2
		}
		return colour{}, len(params)
	case 2:
		if len(params) >= 4 {
			c := func(v int) uint8 { return uint8(max(0, min(255, v))) }
			return colour{true, rgb{c(params[1]), c(params[2]), c(params[3])}}, 4
		}
		return colour{}, len(params)
	}
	return colour{}, 1
}

// applySGR updates st with the parameters of one SGR sequence.
func applySGR(st *style, raw string) {
	// Colon-separated sub-parameters (38:2::R:G:B, 38:5:N) are read like
	// semicolons; the empty colour-space field of 38:2::R:G:B is dropped.
	raw = strings.ReplaceAll(raw, "::", ":")
	fields := strings.FieldsFunc(raw, func(r rune) bool { return r == ';' || r == ':' })
	if raw == "" || len(fields) == 0 {
		*st = style{}
		return
	}
	params := make([]int, len(fields))
	for i, f := range fields {
		params[i], _ = strconv.Atoi(f)
	}
	for i := 0; i < len(params); i++ {
		p := params[i]
		switch {
		case p == 0:
			*st = style{}
		case p == 1:
			st.bold = true
		case p == 2:
			st.faint = true
		case p == 3:
			st.italic = true
		case p == 4 || p == 21:
			st.underline = true
		case p == 7:
			st.reverse = true
		case p == 8:
			st.conceal = true
		case p == 9:
			st.strike = true
		case p == 22:
			st.bold, st.faint = false, false
		case p == 23:
			st.italic = false
		case p == 24:
			st.underline = false
		case p == 27:
			st.reverse = false
		case p == 28:
			st.conceal = false
		case p == 29:
			st.strike = false
		case p >= 30 && p <= 37:
			st.fg = colour{true, xterm256(p - 30)}
		case p == 38:
			c, n := parseExtColour(params[i+1:])
			if c.set {
				st.fg = c
			}
			i += n
		case p == 39:
			st.fg = colour{}
		case p >= 40 && p <= 47:
			st.bg = colour{true, xterm256(p - 40)}
		case p == 48:
			c, n := parseExtColour(params[i+1:])
			if c.set {
				st.bg = c
			}
			i += n
		case p == 49:
			st.bg = colour{}
		case p >= 90 && p <= 97:
			st.fg = colour{true, xterm256(p - 90 + 8)}
		case p >= 100 && p <= 107:
			st.bg = colour{true, xterm256(p - 100 + 8)}
		}
		// Other codes (blink, overline, underline colour…) do not change
		// how a still picture looks here and are ignored.
	}
}

// runeWidth is the number of cells r takes: 0 for combining marks, 2 for
// East Asian wide and fullwidth characters and most emoji, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r == 0 || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200d || (r >= 0xfe00 && r <= 0xfe0f):
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0x303e, r >= 0x3041 && r <= 0x33ff,
		r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff, r >= 0xa000 && r <= 0xa4cf,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1f64f,
		r >= 0x1f900 && r <= 0x1f9ff, r >= 0x1fa70 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// parseScreen splits the capture into lines of cells. Escape sequences
// other than SGR (cursor moves, OSC titles…) are skipped.
func parseScreen(text string, cols int) [][]cell {
	var screen [][]cell
	var st style
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		var row []cell
		for i := 0; i < len(line); {
			if line[i] == 0x1b {
				i += skipEscape(line[i:], &st)
				continue
			}
			r, n := utf8.DecodeRuneInString(line[i:])
			i += n
			if r < 0x20 || r == 0x7f {
				if r == '\t' {
					for len(row) == 0 || len(row)%8 != 0 {
						row = append(row, cell{' ', 1, st})
					}
				}
				continue
			}
			w := runeWidth(r)
			if w == 0 {
				continue // a still picture loses nothing much without combining marks
			}
			row = append(row, cell{r, w, st})
			if w == 2 {
				row = append(row, cell{0, 0, st}) // covered by the wide character
			}
		}
		if cols > 0 && len(row) > cols {
			row = row[:cols]
		}
		screen = append(screen, row)
	}
	return screen
}

// skipEscape reads the escape sequence at the start of s, applies it to st
// if it is SGR, and returns its length.
func skipEscape(s string, st *style) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[': // CSI: parameters, intermediates, one final byte
		j := 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j >= len(s) {
			return len(s)
		}
		if s[j] == 'm' && !strings.ContainsAny(s[2:j], "<=>?") {
			applySGR(st, s[2:j])
		}
		return j + 1
	case ']', 'P', '_', '^', 'X': // string sequences, ended by BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	default:
		return 2
	}
}

// resolved is the look of one cell once defaults, reverse and faint are
// worked out: what the CSS needs.
type resolved struct {
	fg, bg                      rgb
	bgSet                       bool
	bold, italic, under, strike bool
}

func resolve(st style) resolved {
	fg, bg := defaultFG, defaultBG
	if st.fg.set {
		fg = st.fg.rgb
	}
	if st.bg.set {
		bg = st.bg.rgb
	}
	bgSet := st.bg.set
	if st.reverse {
		fg, bg = bg, fg
		bgSet = true
	}
	if st.faint {
		fg = mix(fg, bg, 0.55)
	}
	if st.conceal {
		fg = bg
	}
	return resolved{fg: fg, bg: bg, bgSet: bgSet, bold: st.bold, italic: st.italic, under: st.underline, strike: st.strike}
}

func (r resolved) css() string {
	var b strings.Builder
	if r.fg != defaultFG {
		b.WriteString("color:" + r.fg.css() + ";")
	}
	if r.bgSet && r.bg != defaultBG {
		b.WriteString("background:" + r.bg.css() + ";")
	}
	if r.bold {
		b.WriteString("font-weight:bold;")
	}
	if r.italic {
		b.WriteString("font-style:italic;")
	}
	switch {
	case r.under && r.strike:
		b.WriteString("text-decoration:underline line-through;")
	case r.under:
		b.WriteString("text-decoration:underline;")
	case r.strike:
		b.WriteString("text-decoration:line-through;")
	}
	return b.String()
}

type layout struct {
	cols, rows        int
	fontSize          float64
	cellW, lineH, pad float64
}

func newLayout(cols, rows int, fontSize, pad float64) layout {
	return layout{
		cols: cols, rows: rows, fontSize: fontSize, pad: pad,
		cellW: fontSize * fontAdvance / fontUnits,
		// Whole pixels, rounded down, so that neighbouring lines' box
		// drawing glyphs touch or overlap rather than leave a gap.
		lineH: math.Floor(fontSize * (fontAscent + fontDescent) / fontUnits),
	}
}

func (l layout) size() (w, h int) {
	return int(math.Ceil(float64(l.cols)*l.cellW + 2*l.pad)), int(math.Ceil(float64(l.rows)*l.lineH + 2*l.pad))
}

// plainASCII reports whether r is drawn as part of a run of text
// (printable ASCII); anything else gets a box of its own.
func plainASCII(r rune) bool { return r >= 0x20 && r < 0x7f }

// drawn are characters no installed font has, drawn with CSS instead: the
// class that draws each.
var drawn = map[rune]string{
	'⎿': "k", // U+23BF, the corner under a tool call, missing from DejaVu
}

func render(w io.Writer, screen [][]cell, l layout, title string) error {
	var b strings.Builder
	pw, ph := l.size()
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
html,body{margin:0;padding:0;background:%s;}
body{width:%dpx;height:%dpx;overflow:hidden;}
.t{position:absolute;left:%gpx;top:%gpx;font-family:"DejaVu Sans Mono",monospace;font-size:%gpx;line-height:%gpx;
 color:%s;font-variant-ligatures:none;font-kerning:none;}
.l{height:%gpx;overflow:visible;white-space:pre;}
.l span{display:inline-block;height:%gpx;vertical-align:top;overflow:visible;}
.l span.c{text-align:center;}
.l span.k{position:relative;}
.l span.k::before{content:"";position:absolute;left:40%%;right:0;top:8%%;bottom:28%%;
 border-left:1px solid currentColor;border-bottom:1px solid currentColor;}
</style></head><body><div class="t">
`, html.EscapeString(title), defaultBG.css(), pw, ph, l.pad, l.pad, l.fontSize, l.lineH, defaultFG.css(),
		l.lineH, l.lineH)
	for y := 0; y < l.rows; y++ {
		var row []cell
		if y < len(screen) {
			row = screen[y]
		}
		b.WriteString(`<div class="l">`)
		writeRow(&b, row, l)
		b.WriteString("</div>\n")
	}
	b.WriteString("</div></body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRow writes the cells of one line as spans, each exactly as wide as
// the cells it covers, so that a column starts at the same pixel on every
// line whatever the font's advances: a run of printable ASCII in one look
// shares a span, every other character gets its own.
func writeRow(b *strings.Builder, row []cell, l layout) {
	for len(row) < l.cols {
		row = append(row, cell{' ', 1, style{}})
	}
	// Trailing blanks in the default background need no span at all.
	end := len(row)
	for end > 0 && row[end-1].ch == ' ' && !resolve(row[end-1].st).bgSet && !row[end-1].st.underline && !row[end-1].st.strike {
		end--
	}
	span := func(class, css, text string, cells int) {
		b.WriteString("<span")
		if class != "" {
			fmt.Fprintf(b, ` class="%s"`, class)
		}
		fmt.Fprintf(b, ` style="width:%gpx;%s">%s</span>`, float64(cells)*l.cellW, css, html.EscapeString(text))
	}
	for i := 0; i < end; {
		c := row[i]
		if c.width == 0 {
			i++
			continue
		}
		look := resolve(c.st)
		css := look.css()
		if !plainASCII(c.ch) {
			if class, ok := drawn[c.ch]; ok {
				span("c "+class, css, "", c.width)
			} else {
				span("c", css, string(c.ch), c.width)
			}
			i++
			continue
		}
		j := i
		var text strings.Builder
		for j < end && row[j].width == 1 && plainASCII(row[j].ch) && resolve(row[j].st) == look {
			text.WriteRune(row[j].ch)
			j++
		}
		span("", css, text.String(), j-i)
		i = j
	}
}

func main() {
	cols := flag.Int("cols", 120, "terminal width in cells")
	rows := flag.Int("rows", 40, "terminal height in lines")
	cellW := flag.Float64("cell-width", 9, "cell width in CSS pixels; the font size follows from it (a whole number keeps glyphs on the pixel grid)")
	pad := flag.Float64("pad", 12, "margin around the screen in CSS pixels")
	out := flag.String("o", "", "write the page to this file (default: standard output)")
	title := flag.String("title", "terminal", "page title")
	printSize := flag.Bool("size", false, `only print the page size as "W,H" and exit`)
	flag.Parse()

	l := newLayout(*cols, *rows, *cellW*fontUnits/fontAdvance, *pad)
	if *printSize {
		w, h := l.size()
		fmt.Printf("%d,%d\n", w, h)
		return
	}
	var in io.Reader = os.Stdin
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fail(err)
		}
		defer f.Close()
		in = f
	}
	data, err := io.ReadAll(in)
	if err != nil {
		fail(err)
	}
	screen := parseScreen(string(data), *cols)
	if len(screen) > *rows {
		screen = screen[:*rows]
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		w = f
	}
	if err := render(w, screen, l, *title); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ansihtml:", err)
	os.Exit(1)
}
