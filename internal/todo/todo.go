// Package todo keeps an agent's todo list: the items TodoWrite records,
// stored as JSON under <config>/todos/<session>-agent-<agent>.json.
package todo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/atomicfile"
)

// Status of an item.
type Status = event.TodoStatus

// The statuses an item moves through.
const (
	Pending    = event.TodoPending
	InProgress = event.TodoInProgress
	Completed  = event.TodoCompleted
)

// Item is one entry of a todo list; front ends receive the same type in
// events.
type Item = event.TodoItem

// Validate checks a list: every item has content, a known status and an
// active form.
func Validate(items []Item) error {
	for i, it := range items {
		switch {
		case strings.TrimSpace(it.Content) == "":
			return fmt.Errorf("item %d has no content", i+1)
		case it.Status != Pending && it.Status != InProgress && it.Status != Completed:
			return fmt.Errorf("item %d has status %q; use pending, in_progress or completed", i+1, it.Status)
		case strings.TrimSpace(it.ActiveForm) == "":
			return fmt.Errorf("item %d has no activeForm (the text shown while it is in progress)", i+1)
		}
	}
	return nil
}

// Path is where the list of agentID in sessionID is stored. The main
// conversation uses the session id as its agent id.
func Path(configDir, sessionID, agentID string) string {
	if agentID == "" {
		agentID = sessionID
	}
	return filepath.Join(configDir, "todos", sessionID+"-agent-"+agentID+".json")
}

// Load reads a stored list. A missing file is an empty list. A file that
// cannot be read or fails validation is also an empty list, and the error
// says what was wrong so the caller can report it; it never stops a
// session.
func Load(path string) ([]Item, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading todo list %s: %w", path, err)
	}
	var items []Item
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("todo list %s is not valid (%v); starting with an empty list", path, err)
	}
	if err := Validate(items); err != nil {
		return nil, fmt.Errorf("todo list %s is not valid (%v); starting with an empty list", path, err)
	}
	return items, nil
}

// Save writes a list atomically.
func Save(path string, items []Item) error {
	if items == nil {
		items = []Item{}
	}
	data, err := json.MarshalIndent(items, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}
