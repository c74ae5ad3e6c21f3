package acp

import (
	"context"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
)

// editorFiles gives a session's file tools the editor's buffers through
// fs/read_text_file and fs/write_text_file, each only where the editor
// offered it. The session's permission engine has decided on every call
// before it gets here; a failed request makes the tool use the disk.
type editorFiles struct {
	ss          *session
	read, write bool
}

var errNotOffered = errors.New("the editor does not offer this")

var _ app.Editor = (*editorFiles)(nil)

// newEditorFiles returns the editor's files for a session, or nil when
// the editor offers neither request.
func newEditorFiles(ss *session, caps sdk.FileSystemCapabilities) *editorFiles {
	if !caps.ReadTextFile && !caps.WriteTextFile {
		return nil
	}
	return &editorFiles{ss: ss, read: caps.ReadTextFile, write: caps.WriteTextFile}
}

// ReadText reads the file as the editor has it, unsaved changes included.
func (f *editorFiles) ReadText(ctx context.Context, path string) (string, error) {
	if !f.read {
		return "", errNotOffered
	}
	resp, err := f.ss.srv.conn.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(f.ss.id), Path: path})
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}

// WriteText has the editor write the file, so the user sees the change.
func (f *editorFiles) WriteText(ctx context.Context, path, text string) error {
	if !f.write {
		return errNotOffered
	}
	_, err := f.ss.srv.conn.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: sdk.SessionId(f.ss.id), Path: path, Content: text})
	return err
}
