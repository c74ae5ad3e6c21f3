package builtin

import (
	"context"
	"fmt"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// planMaxBytes bounds a plan file read for an edit.
const planMaxBytes = 16 << 20

// fileWriter is how Write and Edit read and replace the file a call
// names. In plan mode the only file they may change is the plan file,
// which may sit in a directory other users can write (a plans directory
// inside a shared project): there they work on the plan file's own path,
// following no symbolic link anywhere in it, so a link swapped in after
// the permission check cannot send the write (or the read) elsewhere.
// Everywhere else a link the user made is followed as editors do, but
// only as far as the permission decision saw it: the file is read and
// written at the canonical path the decision judged (decidedPath),
// itself opened following no link, and the path as given serves the
// user's editor and the session's record of files read.
type fileWriter struct {
	// ctx is the call's, for the user's editor.
	ctx  context.Context
	path string
	// canon is the canonical path the decision judged; the plan file's
	// own path in plan mode.
	canon    string
	noFollow bool
	// err refuses the call: in plan mode, a path that is not the plan
	// file when the call runs.
	err error
}

// writerFor returns the writer of path for the call running in ctx. In
// plan mode the path must still be the plan file when the call runs
// (permission.PlanModeWrite, plan mode's one rule on changing files).
func writerFor(ctx context.Context, d decidedPath) fileWriter {
	g := tool.GateFrom(ctx)
	if g == nil || g.Context.Mode != permission.ModePlan {
		return fileWriter{ctx: ctx, path: d.path, canon: d.canon}
	}
	if err := permission.PlanModeWrite(g.Context.Mode, g.Context.PlanFile, d.path); err != nil {
		return fileWriter{ctx: ctx, err: fmt.Errorf("%s cannot be written now: %w", d.path, err)}
	}
	return fileWriter{ctx: ctx, path: g.Context.PlanFile, canon: g.Context.PlanFile, noFollow: true}
}

// read returns the file's content as the session sees it: the plan file
// from disk, another file from the user's editor when it has the file
// open, else from disk.
func (w fileWriter) read(env *tool.Env) ([]byte, error) {
	if w.noFollow {
		return atomicfile.ReadNoFollow(w.path, planMaxBytes)
	}
	if text, ok := env.EditorText(w.ctx, w.path); ok {
		return []byte(text), nil
	}
	return readDecided(w.canon, editMaxBytes)
}

// commit replaces the file with data atomically and records the new
// state as seen by the session, so the next edit needs no fresh read.
func (w fileWriter) commit(env *tool.Env, data []byte) error {
	if err := env.CheckWriteSize(w.path, int64(len(data))); err != nil {
		return err
	}
	if !w.noFollow {
		return commit(w.ctx, env, w.path, w.canon, data)
	}
	if err := atomicfile.WriteNoFollow(w.canon, data, 0o644); err != nil {
		return err
	}
	if env.Files != nil {
		env.Files.Note(w.path)
	}
	return nil
}
