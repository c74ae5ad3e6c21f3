package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed bashoutput.md
var bashOutputDoc string

//go:embed killshell.md
var killShellDoc string

type bashOutputInput struct {
	BashID string `json:"bash_id" desc:"The id of the background shell, as Bash returned it (e.g. \"bash_1\")."`
	Filter string `json:"filter,omitempty" desc:"A regular expression: only output lines matching it are returned. Lines that do not match are dropped and cannot be read later."`
}

type bashOutputTool struct {
	tool.Meta
	shells *Shells
}

// NewBashOutput returns the BashOutput tool, which reads what a
// background shell printed since the last read.
func NewBashOutput(shells *Shells) tool.Tool {
	return bashOutputTool{Meta: tool.NewMeta[bashOutputInput]("BashOutput", permission.KindNone, bashOutputDoc, true), shells: shells}
}

func (t bashOutputTool) Prepare(_ *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[bashOutputInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.BashID) == "" {
		return nil, errors.New("bash_id is required")
	}
	var re *regexp.Regexp
	if in.Filter != "" {
		if re, err = regexp.Compile(in.Filter); err != nil {
			return nil, fmt.Errorf("filter is not a valid regular expression: %v", err)
		}
	}
	return bashOutputCall{shells: t.shells, id: in.BashID, filter: re}, nil
}

type bashOutputCall struct {
	shells *Shells
	id     string
	filter *regexp.Regexp
}

func (c bashOutputCall) Access() permission.Access {
	return permission.Access{}
}

func (c bashOutputCall) Run(context.Context) tool.Result {
	sh, ok := c.shells.get(c.id)
	if !ok {
		return tool.Errorf("There is no background shell %q. %s", c.id, c.shells.describe())
	}
	status := c.shells.status(sh)
	text, dropped := sh.out.take()
	if c.filter != nil {
		var keep []string
		for _, l := range strings.SplitAfter(text, "\n") {
			if l != "" && c.filter.MatchString(strings.TrimRight(l, "\n")) {
				keep = append(keep, l)
			}
		}
		text = strings.Join(keep, "")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Status: %s\n", status)
	if dropped > 0 {
		fmt.Fprintf(&b, "(%d bytes of older output were dropped before they were read.)\n", dropped)
	}
	if strings.TrimSpace(text) == "" {
		b.WriteString("(no new output)")
	} else {
		capped := newCappedOutput(bashMaxOutput)
		capped.Write([]byte(strings.TrimRight(text, "\n")))
		b.WriteString(capped.String())
	}
	return tool.Result{Content: validUTF8(b.String()), Summary: "Read " + sh.id + " (" + status + ")"}
}

type killShellInput struct {
	ShellID string `json:"shell_id" desc:"The id of the background shell to stop (e.g. \"bash_1\")."`
}

type killShellTool struct {
	tool.Meta
	shells *Shells
}

// NewKillShell returns the KillShell tool, which stops a background shell
// and everything it started.
func NewKillShell(shells *Shells) tool.Tool {
	return killShellTool{Meta: tool.NewMeta[killShellInput]("KillShell", permission.KindNone, killShellDoc, false), shells: shells}
}

func (t killShellTool) Prepare(_ *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[killShellInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.ShellID) == "" {
		return nil, errors.New("shell_id is required")
	}
	return killShellCall{shells: t.shells, id: in.ShellID}, nil
}

type killShellCall struct {
	shells *Shells
	id     string
}

// Access: stopping a process ponder itself started changes no file, so it
// needs no approval in any mode.
func (c killShellCall) Access() permission.Access {
	return permission.Access{}
}

func (c killShellCall) Run(context.Context) tool.Result {
	sh, ok := c.shells.get(c.id)
	if !ok {
		return tool.Errorf("There is no background shell %q. %s", c.id, c.shells.describe())
	}
	if !c.shells.kill(sh) {
		return tool.Result{Content: fmt.Sprintf("%s had already ended (%s).", sh.id, c.shells.status(sh)), Summary: sh.id + " had ended"}
	}
	return tool.Result{Content: fmt.Sprintf("Stopped %s and everything it started.", sh.id), Summary: "Stopped " + sh.id}
}
