package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// maxFileMatches is how many paths the @ menu offers.
const maxFileMatches = 8

// fileMatches are the paths matching an @ being typed, back from the app.
type fileMatches struct {
	query string
	paths []string
}

// mentionToken returns what follows the @ of the word at the end of the
// input, if that word starts with @.
func (m *Model) mentionToken() (string, bool) {
	v := m.in.Value()
	tok := v[strings.LastIndexAny(v, " \t\n")+1:]
	if !strings.HasPrefix(tok, "@") || strings.HasPrefix(tok, `@"`) {
		return "", false
	}
	return tok[1:], true
}

// updateFileMenu looks for paths to complete an @ being typed; the
// project is walked in a command, never in Update.
func (m *Model) updateFileMenu() tea.Cmd {
	q, ok := m.mentionToken()
	if !ok {
		if m.menu.files {
			m.menu = menu{}
		}
		return nil
	}
	a := m.app
	return func() tea.Msg { return fileMatches{query: q, paths: a.CompleteFiles(q, maxFileMatches)} }
}

// showFileMatches opens the @ menu, unless the input moved on meanwhile.
func (m *Model) showFileMatches(msg fileMatches) {
	q, ok := m.mentionToken()
	if !ok || q != msg.query || (m.menu.open && !m.menu.files) {
		return
	}
	matches := make([]slashCommand, len(msg.paths))
	for i, p := range msg.paths {
		matches[i] = slashCommand{name: "@" + p}
	}
	m.menu = menu{open: len(matches) > 0, files: true, matches: matches}
}

// completeFile puts the chosen path in place of the @ being typed. A
// directory stays open for more typing; a file ends the word.
func (m *Model) completeFile() tea.Cmd {
	path := strings.TrimPrefix(m.menu.matches[m.menu.selected].name, "@")
	v := m.in.Value()
	word := "@" + path
	if strings.ContainsAny(path, " \t") {
		word = `@"` + path + `"`
	}
	if !strings.HasSuffix(path, "/") {
		word += " "
	}
	m.in.SetValue(v[:strings.LastIndexAny(v, " \t\n")+1] + word)
	m.menu = menu{}
	return m.updateFileMenu()
}
