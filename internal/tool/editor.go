package tool

import (
	"bytes"
	"context"
	"os"
	"unicode/utf8"
)

// Editor is a text editor driving the session (over the Agent Client
// Protocol) that offers its buffers: reads see what the user has not
// saved yet, and writes go through it so the user sees them happen. It
// never decides anything: a call reaches it only after the permission
// engine let it run, and whatever it fails to do is done on disk.
type Editor interface {
	// ReadText returns the text of the file at the absolute path as the
	// editor has it; an error means "read it from disk".
	ReadText(ctx context.Context, path string) (string, error)
	// WriteText replaces the file's text; an error means "write it to
	// disk".
	WriteText(ctx context.Context, path, text string) error
}

// EditorText returns the file's text from the session's editor, and
// whether it had it.
func (e *Env) EditorText(ctx context.Context, path string) (string, bool) {
	if e == nil || e.Editor == nil {
		return "", false
	}
	text, err := e.Editor.ReadText(ctx, path)
	return text, err == nil
}

// ReadFile returns the file's content as the session sees it: the
// editor's buffer when there is one, else the disk.
func (e *Env) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if text, ok := e.EditorText(ctx, path); ok {
		return []byte(text), nil
	}
	return os.ReadFile(path)
}

// WriteThroughEditor asks the session's editor to write data to path and
// reports whether the disk now holds it. It does not when there is no
// editor, the data is not text, the editor refused, or the editor kept
// the change in an unsaved buffer: the caller then writes the file
// itself, so that commands and later sessions see the same content.
func (e *Env) WriteThroughEditor(ctx context.Context, path string, data []byte) bool {
	if e == nil || e.Editor == nil || !utf8.Valid(data) {
		return false
	}
	if err := e.Editor.WriteText(ctx, path, string(data)); err != nil {
		return false
	}
	onDisk, err := os.ReadFile(path)
	return err == nil && bytes.Equal(onDisk, data)
}
