//go:build !linux

package mailbox

import "time"

// watcher is inotify's stand-in where there is none: a waiting receiver
// polls its inbox (see pollInterval). Sends from the same Mailbox still
// wake it at once.
type watcher struct{}

func newWatcher(inbox, processing string) *watcher { return nil }

func (w *watcher) changed() <-chan struct{} { return nil }

func (w *watcher) fallback(polls int, busy bool) time.Duration { return pollInterval(polls) }

func (w *watcher) close() {}
