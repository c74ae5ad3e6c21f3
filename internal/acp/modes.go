package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/event"
)

// modeConfigID is the id of the mode as a session config option.
const modeConfigID = "mode"

// sessionMode is one permission mode as editors list it.
type sessionMode struct {
	id, name, description string
}

// modes are ponder's permission modes, in the order of its Shift+Tab
// cycle; bypassPermissions is listed only where the command line allowed
// it, since no other path can turn it on.
func (s *server) modes() []sessionMode {
	list := []sessionMode{
		{event.ModeDefault, "Default", "Reads run freely; edits and commands that may change anything ask first"},
		{event.ModeAcceptEdits, "Accept edits", "Edits inside the project pass without asking; commands still ask"},
		{event.ModePlan, "Plan", "Explore read-only and write a plan; nothing else changes until you approve it"},
	}
	if s.bypassAllowed() {
		list = append(list, sessionMode{event.ModeBypass, "Bypass permissions", "Everything runs without asking"})
	}
	return list
}

// bypassAllowed says ponder acp was started with bypassPermissions
// allowed (--dangerously-skip-permissions, or that mode as the start
// mode).
func (s *server) bypassAllowed() bool {
	return s.opts.App.BypassAllowed || s.opts.App.Mode == event.ModeBypass
}

// modeState is the session's modes as session/new and session/load
// return them.
func (s *server) modeState(current string) *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current)}
	for _, m := range s.modes() {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.id), Name: m.name, Description: sdk.Ptr(m.description)})
	}
	return st
}

// configOptions is the mode in the session-config-option form.
func (s *server) configOptions(current string) []sdk.SessionConfigOption {
	var opts sdk.SessionConfigSelectOptionsUngrouped
	for _, m := range s.modes() {
		opts = append(opts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m.id), Name: m.name, Description: sdk.Ptr(m.description)})
	}
	opt := sdk.NewSessionConfigOptionSelect(sdk.SessionConfigValueId(current), sdk.SessionConfigSelectOptions{Ungrouped: &opts})
	opt.Select.Id = modeConfigID
	opt.Select.Name = "Mode"
	opt.Select.Description = sdk.Ptr("ponder's permission mode: what may run without asking")
	opt.Select.Category = sdk.Ptr(sdk.SessionConfigOptionCategoryMode)
	return []sdk.SessionConfigOption{opt}
}

// SetSessionMode changes the mode through the session's one transition,
// with its guards; the change itself is reported as every change is, by
// a current_mode_update.
func (s *server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if err := ss.setMode(string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption sets the one config option ponder has, the mode.
func (s *server) SetSessionConfigOption(_ context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil {
		return sdk.SetSessionConfigOptionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "ponder's only config option is \"mode\", which takes a value id"})
	}
	ss, err := s.lookup(v.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if v.ConfigId != modeConfigID {
		return sdk.SetSessionConfigOptionResponse{}, sdk.NewInvalidParams(map[string]any{"error": "unknown config option " + string(v.ConfigId) + " (ponder has \"mode\")"})
	}
	if err := ss.setMode(string(v.Value)); err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions(ss.app.Mode())}, nil
}

// setMode asks the session to change mode; a refusal is the editor's
// error, and the mode stays.
func (ss *session) setMode(mode string) error {
	if err := ss.app.SetMode(mode, "acp"); err != nil {
		return sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return nil
}
