// Package editor finds the user's text editor.
package editor

import (
	"fmt"
	"os/exec"
	"strings"
)

// Command returns the command that opens path in the user's editor:
// $VISUAL, else $EDITOR, else vi. The variables may carry arguments
// ("code --wait").
func Command(path string, getenv func(string) string) (*exec.Cmd, error) {
	ed := getenv("VISUAL")
	if ed == "" {
		ed = getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	parts := strings.Fields(ed)
	if _, err := exec.LookPath(parts[0]); err != nil {
		return nil, fmt.Errorf("the editor %q was not found (set $VISUAL or $EDITOR)", parts[0])
	}
	return exec.Command(parts[0], append(parts[1:], path)...), nil
}
