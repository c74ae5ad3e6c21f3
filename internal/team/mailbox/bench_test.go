package mailbox

import (
	"context"
	"testing"
)

// benchmarkRoundTrip sends, receives and acknowledges one message per
// iteration through two handles, as a sender and a receiver would.
func benchmarkRoundTrip(b *testing.B, snd, rcv Mailbox, team string) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m, err := NewMessage(team, "lead", "worker", TypeText, Text{Text: "ping"})
		if err != nil {
			b.Fatal(err)
		}
		if err := snd.Send(ctx, m); err != nil {
			b.Fatal(err)
		}
		d, err := rcv.Receive(ctx, "worker")
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Ack(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRoundTripFiles(b *testing.B) {
	dir := b.TempDir()
	open := func() Mailbox {
		mb, err := OpenFiles(dir, "bench", FileOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mb.Close() })
		return mb
	}
	benchmarkRoundTrip(b, open(), open(), "bench")
}

func BenchmarkRoundTripNATS(b *testing.B) {
	url := startNATS(b, b.TempDir(), 0).ClientURL()
	open := func() Mailbox {
		mb, err := OpenNATS(url, "bench", NATSOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mb.Close() })
		return mb
	}
	benchmarkRoundTrip(b, open(), open(), "bench")
}
