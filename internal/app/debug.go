package app

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"log/slog"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
)

// debugLog is ponder's debug log (--debug): what a session set up and,
// as it runs, each model request and each event, one line each, on
// Options.Debug. Nil when off; its methods then do nothing.
type debugLog struct {
	l *slog.Logger
}

func newDebugLog(w io.Writer) *debugLog {
	if w == nil {
		return nil
	}
	return &debugLog{l: slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

func (d *debugLog) log(msg string, args ...any) {
	if d != nil {
		d.l.Debug(msg, args...)
	}
}

// event logs an event in short: its kind and fields, long texts cut.
func (d *debugLog) event(e event.Event) {
	if d == nil {
		return
	}
	if _, ok := e.(event.TextDelta); ok {
		return // the answer's text, piece by piece: too much to be useful
	}
	data, _ := json.Marshal(e)
	text := string(data)
	if len(text) > 400 {
		text = text[:400] + "…"
	}
	d.l.Debug("event", "kind", e.Kind(), "data", text)
}

// debugProvider logs every model request: its model, size, how long it
// took and how it ended.
type debugProvider struct {
	llm.Provider
	log *debugLog
}

func (p debugProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		start := time.Now()
		p.log.log("model request", "provider", p.Name(), "model", req.Model, "messages", len(req.Messages), "tools", len(req.Tools))
		var failure error
		for ev, err := range p.Provider.Stream(ctx, req) {
			if err != nil {
				failure = err
			}
			if !yield(ev, err) {
				break
			}
		}
		if failure != nil {
			p.log.log("model request failed", "model", req.Model, "after", time.Since(start).Round(time.Millisecond), "error", failure)
			return
		}
		p.log.log("model request done", "model", req.Model, "after", time.Since(start).Round(time.Millisecond))
	}
}

// debugSetup logs what the session was built from.
func (a *App) debugSetup() {
	if a.debug == nil {
		return
	}
	a.debug.log("settings", "files", strings.Join(a.cfg.Files, ", "), "project", a.cfg.ProjectDir, "trusted", a.cfg.Trusted, "trusted_by", a.cfg.TrustedBy)
	a.debug.log("provider", "name", a.provider.Name(), "base_url", a.provider.BaseURL(), "model", a.models.Main, "explore_model", a.models.Explore, "plan_model", a.models.Plan)
	if len(a.addDirs) > 0 {
		a.debug.log("added directories", "dirs", strings.Join(a.addDirs, ", "))
	}
	for _, w := range a.warnings {
		a.debug.log("warning", "text", w)
	}
}
