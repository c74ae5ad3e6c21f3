package mailbox

import (
	"fmt"
	"strconv"
)

// MaxNameLen is the longest team or member name.
const MaxNameLen = 64

// ValidateName reports whether s may name a team or a member. kind
// ("team", "member", …) only words the error.
//
// A name is 1 to 64 characters of lower-case ASCII letters, digits, '-'
// and '_', starting with a letter or a digit. The rule is an allow list
// because a name becomes a directory name, a NATS subject token and a
// JetStream consumer name: it can hold no path separator, no "." or "..",
// no NUL, no NATS wildcard ('*', '>') or token separator ('.'), and no
// upper case, which would make two names one on a case-insensitive file
// system.
func ValidateName(kind, s string) error {
	if s == "" {
		return fmt.Errorf("mailbox: %s name is empty", kind)
	}
	if len(s) > MaxNameLen {
		return fmt.Errorf("mailbox: %s name %s is longer than %d characters", kind, quote(s), MaxNameLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return fmt.Errorf("mailbox: %s name %s is not allowed: use lower-case letters, digits, '-' and '_', starting with a letter or digit", kind, quote(s))
		}
	}
	return nil
}

// validateID reports whether s may be a message ID: 1 to 128 ASCII
// letters, digits, '-' and '_'. An ID becomes part of a file name and a
// NATS header, so it is held to an allow list as well.
func validateID(s string) error {
	if s == "" {
		return fmt.Errorf("mailbox: message has no id (build messages with NewMessage)")
	}
	if len(s) > 128 {
		return fmt.Errorf("mailbox: message id %s is longer than 128 characters", quote(s))
	}
	for i := 0; i < len(s); i++ {
		if !idChar(s[i]) {
			return fmt.Errorf("mailbox: message id %s is not allowed: use ASCII letters, digits, '-' and '_'", quote(s))
		}
	}
	return nil
}

func idChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// validateType reports whether s may be a message type: 1 to 64
// lower-case letters, digits and '_', starting with a letter.
func validateType(s string) error {
	if s == "" {
		return fmt.Errorf("mailbox: message has no type")
	}
	if len(s) > 64 {
		return fmt.Errorf("mailbox: message type %s is longer than 64 characters", quote(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '_')) {
			return fmt.Errorf("mailbox: message type %s is not allowed: use lower-case letters, digits and '_'", quote(s))
		}
	}
	return nil
}

// quote shows a hostile string safely in an error: control characters
// escaped, and cut when long.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.QuoteToASCII(s)
}
