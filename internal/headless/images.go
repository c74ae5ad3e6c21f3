package headless

import (
	"encoding/json"
	"fmt"

	"github.com/ponder-agent/ponder/internal/app"
)

// images returns the image blocks of a user message given as blocks, in
// the Messages API's shape: {"type":"image","source":{"type":"base64",
// "media_type":"image/png","data":"…"}}. Each is checked: a block that is
// not a base64 image of a kind the models take is an error.
func (m *inMessage) images() ([]app.Image, error) {
	var blocks []struct {
		Type   string `json:"type"`
		Source struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
		} `json:"source"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return nil, nil // a string: no images
	}
	var out []app.Image
	for i, b := range blocks {
		if b.Type != "image" {
			continue
		}
		if b.Source.Type != "base64" {
			return nil, fmt.Errorf("content[%d]: only base64 image sources are taken, not %q", i, b.Source.Type)
		}
		img := app.Image{MediaType: b.Source.MediaType, Data: b.Source.Data}
		if err := app.CheckImage(img); err != nil {
			return nil, fmt.Errorf("content[%d]: %v", i, err)
		}
		out = append(out, img)
	}
	return out, nil
}
