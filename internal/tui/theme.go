package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/ponder-agent/ponder/internal/markdown"
)

// theme holds every style of the interface, so that tests can render
// without colour and the palette lives in one place.
type theme struct {
	plain bool

	user, assistant, dim, faint, bold, accent, warn, errorText, ok lipgloss.Style
	toolName, toolArg                                              lipgloss.Style
	modeDefault, modeAccept, modePlan, modeBypass                  lipgloss.Style
	planHint, dialogBorder, dialogTitle, selected, unselected      lipgloss.Style
	inputBorder                                                    lipgloss.Style
	markdown                                                       markdown.Theme
}

func colourTheme() theme {
	c := lipgloss.Color
	purple, teal, amber, red, green, grey := c("141"), c("37"), c("214"), c("203"), c("78"), c("245")
	return theme{
		user:         lipgloss.NewStyle().Foreground(c("252")).Bold(true),
		assistant:    lipgloss.NewStyle(),
		dim:          lipgloss.NewStyle().Foreground(grey),
		faint:        lipgloss.NewStyle().Foreground(c("240")),
		bold:         lipgloss.NewStyle().Bold(true),
		accent:       lipgloss.NewStyle().Foreground(teal),
		warn:         lipgloss.NewStyle().Foreground(amber),
		errorText:    lipgloss.NewStyle().Foreground(red),
		ok:           lipgloss.NewStyle().Foreground(green),
		toolName:     lipgloss.NewStyle().Bold(true),
		toolArg:      lipgloss.NewStyle().Foreground(grey),
		modeDefault:  lipgloss.NewStyle().Foreground(grey),
		modeAccept:   lipgloss.NewStyle().Foreground(c("0")).Background(green).Padding(0, 1),
		modePlan:     lipgloss.NewStyle().Foreground(c("0")).Background(purple).Bold(true).Padding(0, 1),
		modeBypass:   lipgloss.NewStyle().Foreground(c("0")).Background(red).Bold(true).Padding(0, 1),
		planHint:     lipgloss.NewStyle().Foreground(purple),
		dialogBorder: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(teal).Padding(0, 1),
		dialogTitle:  lipgloss.NewStyle().Bold(true).Foreground(teal),
		selected:     lipgloss.NewStyle().Foreground(teal).Bold(true),
		unselected:   lipgloss.NewStyle(),
		inputBorder:  lipgloss.NewStyle().Foreground(c("240")),
		markdown:     markdown.DefaultTheme(),
	}
}

// plainTheme styles nothing: golden tests and NO_COLOR use it.
func plainTheme() theme {
	n := lipgloss.NewStyle()
	return theme{
		plain: true, user: n, assistant: n, dim: n, faint: n, bold: n, accent: n, warn: n, errorText: n, ok: n,
		toolName: n, toolArg: n, modeDefault: n, modeAccept: n, modePlan: n, modeBypass: n, planHint: n,
		dialogBorder: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1),
		dialogTitle:  n, selected: n, unselected: n, inputBorder: n,
		markdown: markdown.PlainTheme(),
	}
}
