package llm

import (
	"context"
	"errors"
	"io"
	"iter"
	"math/rand/v2"
	"net"
	"syscall"
	"time"
)

// RetryPolicy says how often and how patiently a failed request is tried
// again.
type RetryPolicy struct {
	// MaxAttempts counts the first try; values below 1 mean 1.
	MaxAttempts int
	// BaseDelay is the wait before the second attempt; it doubles for
	// each following one, up to MaxDelay. A server's retry-after wins.
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

// DefaultRetryPolicy is four attempts with waits of about 0.5 s, 1 s, 2 s.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 4, BaseDelay: 500 * time.Millisecond, MaxDelay: 30 * time.Second}

// maxRetryAfter bounds how long a server may ask ponder to wait.
const maxRetryAfter = 2 * time.Minute

// WithRetry wraps p so that requests failing with a transient error
// (429, 5xx, 529 overloaded, also when reported inside a stream; a reset
// or refused connection, a stream cut before the model finished, a server
// silent for the idle timeout) are sent again. Before each new attempt the stream yields
// an EventRetry so that consumers discard what the failed attempt streamed.
// Tools only run once a response is complete, so a retried stream never
// repeats a tool's effect.
func WithRetry(p Provider, policy RetryPolicy) Provider {
	if policy.MaxAttempts < 1 {
		policy.MaxAttempts = 1
	}
	return &retrying{Provider: p, policy: policy}
}

type retrying struct {
	Provider
	policy RetryPolicy
}

func (r *retrying) Stream(ctx context.Context, req Request) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for attempt := 1; ; attempt++ {
			var failed error
			for ev, err := range r.Provider.Stream(ctx, req) {
				if err != nil {
					failed = err
					break
				}
				if !yield(ev, nil) {
					return
				}
			}
			if failed == nil {
				return
			}
			if ctx.Err() != nil {
				yield(Event{}, context.Cause(ctx))
				return
			}
			if attempt >= r.policy.MaxAttempts || !IsTransient(failed) {
				yield(Event{}, failed)
				return
			}
			wait := r.policy.delay(attempt, failed)
			if !yield(Event{Type: EventRetry, Attempt: attempt + 1, Wait: wait, Err: failed}, nil) {
				return
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				yield(Event{}, context.Cause(ctx))
				return
			case <-t.C:
			}
		}
	}
}

// delay is the wait after the given failed attempt (1-based): the
// server's retry-after when it sent one, else exponential backoff with
// jitter (between half and all of the doubled base delay).
func (p RetryPolicy) delay(attempt int, err error) time.Duration {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
		return min(apiErr.RetryAfter, maxRetryAfter)
	}
	d := p.BaseDelay << (attempt - 1)
	if p.MaxDelay > 0 && (d > p.MaxDelay || d <= 0) {
		d = p.MaxDelay
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// IsTransient reports whether err is worth another attempt.
func IsTransient(err error) bool {
	var idle *IdleTimeoutError
	if errors.As(err, &idle) {
		return true
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Retryable()
	}
	if errors.Is(err, ErrStreamBroken) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr)
}
