package mailbox

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Mailbox is the message store of one team: every member's inbox.
// Its methods are safe for concurrent use; several Mailbox values, in
// one process or many, may serve the same team at once.
type Mailbox interface {
	// Team is the team this mailbox serves.
	Team() string
	// Send stores msg durably in the inbox of msg.To. msg.Team must be
	// this mailbox's team. Sending a message again (same ID) after an
	// error stores it once.
	Send(ctx context.Context, msg Message) error
	// Receive blocks until the inbox of name has a message for it or
	// ctx ends, and returns it leased: no one else receives it until the
	// delivery is settled (Ack, Nak) or its holder is gone. At most one
	// delivery per inbox is outstanding: settle one before receiving
	// the next, or Receive waits. A stored message that is not valid is
	// moved aside and reported as a *BadMessageError; the next Receive
	// goes on with the rest.
	Receive(ctx context.Context, name string) (Delivery, error)
	// Pending counts the messages in the inbox of name that are not
	// acknowledged yet, including one being processed.
	Pending(ctx context.Context, name string) (int, error)
	// Close gives back the deliveries not settled yet (as Nak does) and
	// releases the mailbox. Deliveries and calls after Close fail with
	// ErrClosed.
	Close() error
}

// Delivery is a received message, leased to its receiver until settled.
type Delivery interface {
	Message() Message
	// Ack marks the message processed: it is never delivered again.
	Ack(ctx context.Context) error
	// Nak gives the message back: it is the next one delivered from its
	// inbox.
	Nak(ctx context.Context) error
}

var (
	// ErrClosed is returned by a Mailbox or Delivery used after Close.
	ErrClosed = errors.New("mailbox: closed")
	// ErrSettled is returned by Ack or Nak on a delivery already settled.
	ErrSettled = errors.New("mailbox: delivery already acknowledged or given back")
)

// BadMessageError reports a stored message that cannot be delivered: not
// JSON, a version this ponder does not know, or addressed to another
// inbox. It is never delivered; Where says where it was kept.
type BadMessageError struct {
	Inbox string
	Where string
	Err   error
}

func (e *BadMessageError) Error() string {
	return fmt.Sprintf("mailbox: a message in the inbox of %s could not be read and was set aside (%s): %v", e.Inbox, e.Where, e.Err)
}

func (e *BadMessageError) Unwrap() error { return e.Err }

// SettingFiles is the team.mailbox value of the file mailbox, the default.
const SettingFiles = "files"

// Open returns the mailbox of team as the team.mailbox setting says:
// "" or "files" for the file mailbox under configDir, or a NATS URL
// ("nats://host:4222", "tls://…", several separated by commas) for
// JetStream with default options.
func Open(setting, configDir, team string) (Mailbox, error) {
	switch {
	case setting == "" || setting == SettingFiles:
		return OpenFiles(configDir, team, FileOptions{})
	case isNATSURL(setting):
		return OpenNATS(setting, team, NATSOptions{})
	default:
		return nil, fmt.Errorf("mailbox: team.mailbox is %s; want %q or a nats:// URL", quote(redactURL(setting)), SettingFiles)
	}
}

// isNATSURL reports whether every comma-separated part of s is a
// nats:// or tls:// URL with a host.
func isNATSURL(s string) bool {
	for part := range strings.SplitSeq(s, ",") {
		u, err := url.Parse(strings.TrimSpace(part))
		if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" {
			return false
		}
	}
	return true
}

// redactURL hides the password or token of every URL in s, so an error
// that names the server never shows a credential.
func redactURL(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil {
			if strings.Contains(p, "@") {
				parts[i] = "(an unreadable URL)"
			}
			continue
		}
		if u.User != nil {
			u.User = url.User("xxxxx")
		}
		parts[i] = u.Redacted()
	}
	return strings.Join(parts, ",")
}
