package tool

import (
	"encoding/json"

	"github.com/ponder-agent/ponder/internal/permission"
)

// Meta is the descriptive half of a Tool: its name, what kind of access
// its calls make, its description for the model, its input schema and
// whether it may run beside other calls. Tools embed it and add Prepare.
type Meta struct {
	ToolName    string
	ToolKind    permission.Kind
	Doc         string
	InputSchema json.RawMessage
	Parallel    bool
}

// NewMeta describes a tool whose input is the struct T (see SchemaOf).
func NewMeta[T any](name string, kind permission.Kind, doc string, parallel bool) Meta {
	return Meta{ToolName: name, ToolKind: kind, Doc: doc, InputSchema: SchemaOf[T](), Parallel: parallel}
}

// Name is the tool's name.
func (m Meta) Name() string { return m.ToolName }

// Kind is what every call of the tool does to the system.
func (m Meta) Kind() permission.Kind { return m.ToolKind }

// Description is the tool's description for the model.
func (m Meta) Description() string { return m.Doc }

// Schema is the tool's input schema.
func (m Meta) Schema() json.RawMessage { return m.InputSchema }

// ConcurrencySafe says whether calls may run beside other safe calls.
func (m Meta) ConcurrencySafe() bool { return m.Parallel }
