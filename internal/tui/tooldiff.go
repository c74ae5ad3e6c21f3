package tui

// foldedDiffLines is how many lines of a change a Write or Edit shows
// in the transcript while results are folded; ctrl+o shows all.
const foldedDiffLines = 8

// diffBlock draws the change a Write or Edit made under its call: the
// unified diff coloured as in the approval dialog, indented, cut to a
// few lines unless results are expanded.
func (c *conversation) diffBlock(diff string, width int) []string {
	th := c.th
	body := diffLines(th, diff, max(10, width-4))
	var out []string
	shown := body
	if !c.expanded && len(body) > foldedDiffLines {
		shown = body[:foldedDiffLines]
	}
	for _, l := range shown {
		out = append(out, "    "+l)
	}
	if hidden := len(body) - len(shown); hidden > 0 {
		out = append(out, th.faint.Render("    … "+plural(hidden, "more line")+" (ctrl+o to expand)"))
	}
	return out
}
