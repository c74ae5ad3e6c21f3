package app

import (
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/llm"
)

// imageKind returns the media type of an image file ponder can attach,
// from its name, or "".
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

// attachImage attaches an image file (see image support below).
func (a *App) attachImage(m mention, kind string) (llm.Block, error) {
	return llm.Block{}, errImagesUnsupported
}

var errImagesUnsupported = errorString("images are not supported yet")

type errorString string

func (e errorString) Error() string { return string(e) }
