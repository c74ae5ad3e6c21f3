package acp

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// promptText turns a prompt's content into the text the model gets:
// text as it is, a resource link as a mention of the file (or address),
// an embedded text resource as its content marked with where it comes
// from. ponder takes no images, audio or binary resources (its
// initialize answer says so), and refuses them by name.
func promptText(blocks []sdk.ContentBlock) (string, error) {
	var parts []string
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, "@"+uriPath(b.ResourceLink.Uri))
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			parts = append(parts, fmt.Sprintf("<context source=%q>\n%s\n</context>", uriPath(r.Uri), r.Text))
		case b.Resource != nil:
			return "", fmt.Errorf("prompt block %d: ponder takes text resources only, not binary ones", i)
		case b.Image != nil:
			return "", fmt.Errorf("prompt block %d: ponder takes no images", i)
		case b.Audio != nil:
			return "", fmt.Errorf("prompt block %d: ponder takes no audio", i)
		default:
			return "", fmt.Errorf("prompt block %d: unknown content", i)
		}
	}
	text := strings.Join(parts, "\n")
	if strings.TrimSpace(text) == "" {
		return "", errors.New("the prompt is empty")
	}
	return text, nil
}

// uriPath is a file URI's path, or the URI itself.
func uriPath(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return uri
}
