package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// tinyPNG is a 2×2 PNG image.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lastImages returns the images of the last request's last user message.
func lastImages(w *world) []fakemodel.Image {
	reqs := w.srv.Requests()
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1].LastUser().Images
}

// An @-mentioned image reaches the model as an image block, on both APIs.
func TestMentionedImageReachesTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "seen", When: fakemodel.Match{LastUser: "what is in"}, Text: "A red dot."})
		data := tinyPNG(t)
		w.write("shot.png", string(data))
		w.mustRun(0, "", "-p", "what is in @shot.png?")
		imgs := lastImages(w)
		if len(imgs) != 1 || imgs[0].MediaType != "image/png" || imgs[0].Data != base64.StdEncoding.EncodeToString(data) {
			t.Fatalf("images the model got: %+v", imgs)
		}
	})
}

// A host's stream-json image block reaches the model too.
func TestStreamJSONImageBlockReachesTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "seen", When: fakemodel.Match{LastUser: "describe"}, Text: "A red dot."})
		data := base64.StdEncoding.EncodeToString(tinyPNG(t))
		line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "describe this"},
			map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": data}},
		}}})
		w.mustRun(0, string(line)+"\n", "-p", "--input-format", "stream-json", "--output-format", "stream-json")
		imgs := lastImages(w)
		if len(imgs) != 1 || imgs[0].Data != data {
			t.Fatalf("images the model got: %+v", imgs)
		}
	})
}

// What is sent as an image must be one: a text file named .png, a block
// whose bytes are not an image, and an image the Read rules deny are not
// sent.
func TestImagesThatAreNotOrMayNotBeAreRefused(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "seen", When: fakemodel.Match{LastUser: "look"}, Text: "ok", Times: -1})
	w.write("fake.png", "API_TOKEN=hunter2\n")
	w.write("private/shot.png", string(tinyPNG(t)))
	writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Read(private/**)"]}}`)
	// A named pipe called like an image is refused without waiting on it.
	if err := syscall.Mkfifo(filepath.Join(w.dir, "pipe.png"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := w.mustRun(0, "", "-p", "look at @fake.png and @private/shot.png and @pipe.png")
	if !strings.Contains(o.stderr, "@pipe.png is not attached") {
		t.Fatalf("the pipe was not refused: %s", o.stderr)
	}
	if imgs := lastImages(w); len(imgs) != 0 {
		t.Fatalf("sent %d images", len(imgs))
	}
	last := w.srv.Requests()[0].LastUser().Text
	if strings.Contains(last, "hunter2") || !strings.Contains(o.stderr, "@fake.png is not attached") || !strings.Contains(o.stderr, "@private/shot.png is not attached") {
		t.Fatalf("stderr %s\nmessage %q", o.stderr, last)
	}
	line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "look"},
		map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\n"))}},
	}}})
	o = w.run(string(line)+"\n", "-p", "--input-format", "stream-json", "--output-format", "stream-json")
	if len(w.srv.Requests()) != 1 || !strings.Contains(o.stdout+o.stderr, "not a PNG, JPEG, GIF or WebP image") {
		t.Fatalf("a bad image block was not refused:\n%s\n%s", o.stdout, o.stderr)
	}
}
