package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/smallfile"
)

// This file is images: an @-mentioned image file is sent to the model as
// an image block, on either API. Reading it is a Read of that file, put to
// the permission engine like any other.

// MaxImageBytes is the largest image ponder attaches (the model APIs
// refuse larger ones).
const MaxImageBytes = 5 << 20

// imageTypes are the media types the model APIs take.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// imageKind returns the media type an image file's name suggests, or "".
func imageKind(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// attachImage reads an image the user mentioned, if the Read rules let
// it through, and returns a line naming it and the image itself.
func (a *App) attachImage(m mention, _ string) ([]llm.Block, error) {
	if _, err := a.decideForUser(permission.Access{Tool: "Read", Kind: permission.KindRead, Paths: []string{m.Path}}); err != nil {
		return nil, err
	}
	img, err := ReadImage(m.Path)
	if err != nil {
		return nil, err
	}
	return []llm.Block{llm.TextBlock(fmt.Sprintf("<attached-image path=%q/>", m.Raw)), img}, nil
}

// ReadImage reads an image file into an image block. Its content decides
// its type, not its name: a file that is no PNG, JPEG, GIF or WebP image
// is refused, as is one larger than MaxImageBytes.
func ReadImage(path string) (llm.Block, error) {
	// Only a regular file, opened without blocking: a named pipe called
	// shot.png must not hold the turn.
	data, err := smallfile.Prefix(path, MaxImageBytes)
	if err != nil {
		return llm.Block{}, err
	}
	if len(data) > MaxImageBytes {
		return llm.Block{}, fmt.Errorf("the image is larger than %d MB", MaxImageBytes>>20)
	}
	return imageBlock(data)
}

// imageBlock checks that data is an image the APIs take and wraps it.
func imageBlock(data []byte) (llm.Block, error) {
	kind := http.DetectContentType(data)
	if !imageTypes[kind] {
		return llm.Block{}, fmt.Errorf("it is not a PNG, JPEG, GIF or WebP image (it looks like %s)", kind)
	}
	return llm.ImageBlock(kind, base64.StdEncoding.EncodeToString(data)), nil
}

// Image is an image a front end sends with a prompt (a stream-json image
// block, a paste): its media type and its bytes in standard base64.
type Image struct {
	MediaType string
	Data      string
}

// CheckImage decodes and checks an image a front end received: it must
// be base64 of a PNG, JPEG, GIF or WebP image (its bytes say which, and
// must agree with the media type given) of at most MaxImageBytes.
func CheckImage(img Image) error {
	_, err := img.block()
	return err
}

func (img Image) block() (llm.Block, error) {
	data, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		return llm.Block{}, fmt.Errorf("image data is not base64: %v", err)
	}
	if len(data) > MaxImageBytes {
		return llm.Block{}, fmt.Errorf("the image is larger than %d MB", MaxImageBytes>>20)
	}
	b, err := imageBlock(data)
	if err != nil {
		return llm.Block{}, err
	}
	if img.MediaType != "" && img.MediaType != b.MediaType {
		return llm.Block{}, fmt.Errorf("the image is %s, not %s as its block says", b.MediaType, img.MediaType)
	}
	return b, nil
}

// SendImages is Send with images attached after the prompt.
func (a *App) SendImages(ctx context.Context, text string, images []Image) (TurnResult, error) {
	blocks := make([]llm.Block, 0, len(images))
	for i, img := range images {
		b, err := img.block()
		if err != nil {
			return TurnResult{}, &UsageError{Msg: fmt.Sprintf("image %d: %v", i+1, err)}
		}
		blocks = append(blocks, b)
	}
	return a.send(ctx, text, blocks)
}
