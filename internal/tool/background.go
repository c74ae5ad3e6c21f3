package tool

import "context"

type backgroundEndKey struct{}

// WithBackgroundEnd records in ctx what is to run once a command the call
// leaves running after it returns (Bash with run_in_background) has
// ended, killed or not: the guard of the files that make something run
// later compares them again then, since the command may write them after
// the call's own comparison.
func WithBackgroundEnd(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, backgroundEndKey{}, f)
}

// BackgroundEnd returns what WithBackgroundEnd recorded, or nil.
func BackgroundEnd(ctx context.Context) func() {
	f, _ := ctx.Value(backgroundEndKey{}).(func())
	return f
}
