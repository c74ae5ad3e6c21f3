package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// This file is @-mentions: "@path" in a prompt attaches the file (as the
// Read tool shows it) or the directory (as LS lists it) to the message.
// Each attachment is a call of that tool, decided by the permission engine
// like a call the model makes, so a file the rules keep from Read cannot
// be attached, and a directory's listing leaves out what they hide.

// mention is one "@path" of a prompt.
type mention struct {
	// Raw is how it was written, without the @.
	Raw string
	// Path is the absolute path it names.
	Path string
}

// mentions finds the @-mentions of text that name something that exists:
// an @ at the start or after white space, then a path up to the next white
// space (or in double quotes, for paths with spaces). Punctuation that
// ends a sentence is not part of the path unless the path exists with
// it. Mentions of nothing are left as text.
func mentions(text, dir, home string) []mention {
	var out []mention
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !isSpace(text[i-1])) {
			continue
		}
		rest := text[i+1:]
		var raw string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				continue
			}
			raw = rest[1 : 1+end]
		} else {
			end := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
			if end < 0 {
				end = len(rest)
			}
			raw = rest[:end]
		}
		for _, cand := range []string{raw, strings.TrimRight(raw, ".,;:!?)]}'\"")} {
			if cand == "" {
				continue
			}
			p := resolveMention(cand, dir, home)
			if _, err := os.Stat(p); err == nil {
				if !seen[p] {
					seen[p] = true
					out = append(out, mention{Raw: cand, Path: p})
				}
				break
			}
		}
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// resolveMention makes a mentioned path absolute: ~/ is the home
// directory, a relative path starts in dir.
func resolveMention(p, dir, home string) string {
	switch {
	case strings.HasPrefix(p, "~/") && home != "":
		p = filepath.Join(home, p[2:])
	case !filepath.IsAbs(p):
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// attach runs the Read (or LS) call each mention stands for and returns
// the blocks to send after the prompt. A mention the rules do not let
// through is not attached, and the user is told why.
func (a *App) attach(ctx context.Context, text string) []llm.Block {
	home, _ := os.UserHomeDir()
	var out []llm.Block
	for _, m := range mentions(text, a.dir, home) {
		bs, err := a.attachOne(ctx, m)
		if err != nil {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("@%s is not attached: %v", m.Raw, err)})
			continue
		}
		for i := range bs {
			bs[i].Attachment = m.Raw
		}
		out = append(out, bs...)
	}
	return out
}

// attachOne attaches one mention.
func (a *App) attachOne(ctx context.Context, m mention) ([]llm.Block, error) {
	info, err := os.Stat(m.Path)
	if err != nil {
		return nil, err
	}
	name, input, tag := "Read", map[string]any{"file_path": m.Path}, "attached-file"
	if info.IsDir() {
		name, input, tag = "LS", map[string]any{"path": m.Path}, "attached-directory"
	} else if kind := imageKind(m.Path); kind != "" {
		return a.attachImage(m, kind)
	}
	res, err := a.runForUser(ctx, name, input)
	if err != nil {
		return nil, err
	}
	return []llm.Block{llm.TextBlock(fmt.Sprintf("<%s path=%q>\n%s\n</%s>", tag, m.Raw, res.Content, tag))}, nil
}

// runForUser runs a reading tool on the user's behalf, as the main agent
// would run it: the engine decides in the session's current mode, and
// only a plain yes lets it run (nobody is asked while a prompt is sent).
func (a *App) runForUser(ctx context.Context, name string, input map[string]any) (tool.Result, error) {
	t, ok := a.tools.Get(name)
	if !ok {
		return tool.Result{}, fmt.Errorf("this session has no %s tool", name)
	}
	raw, _ := json.Marshal(input)
	call, err := t.Prepare(a.env, raw)
	if err != nil {
		return tool.Result{}, err
	}
	access := call.Access()
	access.Tool, access.Kind = t.Name(), t.Kind()
	pc, err := a.decideForUser(access)
	if err != nil {
		return tool.Result{}, err
	}
	ctx = tool.WithGate(ctx, &tool.Gate{Engine: a.perm, Context: pc, Tool: t.Name(), Kind: t.Kind()})
	res := call.Run(ctx)
	if res.IsError {
		return tool.Result{}, fmt.Errorf("%s", res.Content)
	}
	return res, nil
}

// decideForUser puts an access made on the user's behalf to the
// permission engine in the session's current mode (as the main agent's
// call would be), and returns the context it was decided in. Only a plain
// yes lets it through.
func (a *App) decideForUser(access permission.Access) (permission.Context, error) {
	pc := a.userContext()
	switch d := a.perm.Decide(pc, access); d.Behavior {
	case permission.Allow:
		return pc, nil
	case permission.Ask:
		return pc, fmt.Errorf("reading it needs a yes (%s); ask the model to read it instead", strings.TrimSuffix(d.Reason, "."))
	default:
		return pc, fmt.Errorf("%s", d.Reason)
	}
}
