package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
)

// listPage is how many sessions one session/list answer holds.
const listPage = 50

// ListSessions lists the earlier sessions of a project, newest first;
// ponder keeps them per project, so cwd is required. The cursor is the
// position to go on from.
func (s *server) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	if p.Cwd == nil || !filepath.IsAbs(*p.Cwd) {
		return sdk.ListSessionsResponse{}, sdk.NewInvalidParams(map[string]any{"error": "session/list needs cwd, an absolute path: ponder keeps sessions per project"})
	}
	start := 0
	if p.Cursor != nil {
		n, err := strconv.Atoi(*p.Cursor)
		if err != nil || n < 0 {
			return sdk.ListSessionsResponse{}, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cursor %q is not one ponder gave", *p.Cursor)})
		}
		start = n
	}
	opts := s.opts.App
	opts.Dir = *p.Cwd
	list, err := app.ListSessions(opts)
	if err != nil {
		return sdk.ListSessionsResponse{}, requestError(err)
	}
	resp := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for i := start; i < len(list) && i < start+listPage; i++ {
		info := sdk.SessionInfo{SessionId: sdk.SessionId(list[i].ID), Cwd: *p.Cwd, UpdatedAt: sdk.Ptr(list[i].Modified.UTC().Format(time.RFC3339))}
		if list[i].Title != "" {
			info.Title = sdk.Ptr(list[i].Title)
		}
		resp.Sessions = append(resp.Sessions, info)
	}
	if start+listPage < len(list) {
		resp.NextCursor = sdk.Ptr(strconv.Itoa(start + listPage))
	}
	return resp, nil
}
