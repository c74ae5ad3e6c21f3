// Package mailbox carries messages between the members of a ponder team:
// a lead and its teammates, each reading its own inbox. It is the layer
// under the team protocol (a teammate asks the lead to approve its plan,
// the lead answers, the lead asks a teammate to stop); it knows the
// message kinds that protocol uses but applies none of them.
//
// Two implementations share the Mailbox interface, chosen by the
// team.mailbox setting (see Open):
//
//   - files: one file per message under <configDir>/teams/<team>/inboxes/,
//     for members on one machine (threads of one process or separate
//     processes sharing a config directory);
//   - NATS JetStream (a nats:// or tls:// URL): one stream per team and
//     one durable consumer per inbox, for members in processes with
//     separate config directories, on one machine or several.
//
// # The delivery promise
//
// Once Send returns nil the message is stored durably and will be
// delivered to its inbox at least once, however often either side
// crashes or restarts. Durably means synced to disk by the file
// mailbox, and acknowledged by the JetStream server, which survives its
// own crash but syncs to disk on its own schedule (every two minutes by
// default): run it with sync_always where a power cut must lose nothing.
// Sending the same Message again (same ID, same recipient) after an
// error or a crash stores it once: the file mailbox finds the ID among
// the inbox's queued, leased and recently acknowledged messages, and
// JetStream drops the copy by its Nats-Msg-Id header. An ID is unique
// per inbox: a message with the ID of one already in another member's
// inbox is a different message.
//
// An inbox is delivered in send order, one message at a time: Receive
// hands out the oldest message not yet acknowledged, and no other
// receiver of that inbox gets anything until that delivery is settled.
// Ack settles it for good: it is never delivered again. Nak, Close, the
// death of the receiving process, or (JetStream) a receiver cut off for
// longer than the ack wait, puts it back at the head of the inbox to be
// delivered again. So two receivers of one inbox never hold the same
// message, and a message a receiver was processing when it died is the
// next one delivered.
//
// At-least-once delivery becomes exactly-once processing with a Seen
// record: a small durable list of the IDs a receiver has applied. Handle
// receives, skips (and acknowledges) what Seen already holds, applies the
// rest, records the ID and only then acknowledges. A crash before the ID
// is recorded delivers the message again and applies it again, so the
// effect of applying should carry the message's ID, or the protocol's
// request ID, and be idempotent by it; a crash after the ID is recorded
// never applies it twice.
//
// Receive waits without busy polling where it can: JetStream delivers
// to a waiting pull request, and on Linux the file mailbox sleeps on
// inotify, looking again every 500 ms only while another receiver holds
// a lease (a holder's death changes no file). Elsewhere the file mailbox
// polls, from 10 ms up to 250 ms; a Send through the same Mailbox wakes
// its receivers at once everywhere.
//
// What is not promised: order between different inboxes, or between two
// sends that overlap in time; delivery while the JetStream server is
// unreachable (Send fails after its deadline, Receive waits); and, for
// the file mailbox, correctness on network file systems, where advisory
// locks are unreliable.
package mailbox
