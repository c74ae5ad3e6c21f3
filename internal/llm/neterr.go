package llm

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
)

// ConnectError says the model server could not be reached at all: nothing
// was sent, nothing came back.
type ConnectError struct {
	BaseURL string
	// Reason is what went wrong, in a few words ("connection refused").
	Reason string
	Err    error
}

func (e *ConnectError) Error() string {
	return "cannot connect to the model server at " + e.BaseURL + ": " + e.Reason
}

func (e *ConnectError) Unwrap() error { return e.Err }

// TransportError turns an error met while sending a request or reading its
// answer (anything but an error response of the API) into one that says
// what happened: an *IdleTimeoutError for a silent server, a
// *ConnectError when no connection could be made, and otherwise a broken
// stream. Cancellation passes through unchanged.
func TransportError(provider, baseURL string, err error) error {
	var idle *IdleTimeoutError
	if errors.As(err, &idle) {
		return &IdleTimeoutError{After: idle.After, BaseURL: baseURL}
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return &ConnectError{BaseURL: baseURL, Reason: dialReason(op), Err: err}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &ConnectError{BaseURL: baseURL, Reason: "cannot resolve " + dns.Name + ": " + dns.Err, Err: err}
	}
	return StreamBrokenError(provider, err)
}

// dialReason is the short cause of a failed dial.
func dialReason(op *net.OpError) string {
	var sys *os.SyscallError
	switch {
	case op.Timeout():
		return "no answer within the connect timeout"
	case errors.As(op.Err, &sys):
		return sys.Err.Error()
	case op.Err != nil:
		return strings.TrimSpace(op.Err.Error())
	}
	return op.Error()
}
