package app

import (
	"os"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
)

// ListSessions lists the sessions started in opts.Dir (with opts.ConfigDir
// or the default configuration directory), newest first, with their
// titles, without opening one: for a front end that offers earlier
// sessions before any is open (ponder acp's session/list). It reads every
// transcript.
func ListSessions(opts Options) ([]SessionInfo, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	dir, err := workDir(opts)
	if err != nil {
		return nil, err
	}
	cfgDir := opts.ConfigDir
	if cfgDir == "" {
		if cfgDir, err = config.DefaultDir(opts.Getenv); err != nil {
			return nil, &UsageError{Msg: "settings: " + err.Error()}
		}
	}
	return listSessions(session.NewStore(cfgDir, dir))
}

// listSessions lists a store's sessions, newest first, with their titles.
func listSessions(store session.Store) ([]SessionInfo, error) {
	list, err := store.List()
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, len(list))
	for i, s := range list {
		out[i] = SessionInfo{ID: s.ID, Modified: s.Modified}
		if tr, err := session.Load(s.Path); err == nil {
			out[i].Title = tr.FirstPrompt()
			// A session that approved a plan is named after it.
			if p := tr.LastPlan(true); p != nil {
				if title := planmode.ParseOutline(p.Content).Title; title != "" {
					out[i].Title = title
				}
			}
		}
	}
	return out, nil
}
