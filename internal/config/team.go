package config

import (
	"net/url"
	"strings"
)

// Team configures how the members of a team (a lead and its teammates)
// exchange messages. It widens what ponder does (a mailbox on another
// machine receives plans and code excerpts), so an untrusted project's
// value does not count: narrow leaves it out like every setting it does
// not list.
type Team struct {
	// Mailbox is "files" (the default: inboxes under the config
	// directory) or a NATS URL such as "nats://host:4222" for teams whose
	// members run on several machines.
	Mailbox *string `json:"mailbox,omitempty"`
}

// validateTeam checks team.mailbox: "files" or URLs with the nats or tls
// scheme and a host (several separated by commas).
func validateTeam(t Team) (field, msg string) {
	if t.Mailbox == nil || *t.Mailbox == "files" {
		return "", ""
	}
	for part := range strings.SplitSeq(*t.Mailbox, ",") {
		u, err := url.Parse(strings.TrimSpace(part))
		if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" {
			return "team.mailbox", `must be "files" or a nats:// URL such as "nats://host:4222"`
		}
	}
	return "", ""
}
