package tool

import "encoding/json"

// Meta is the descriptive half of a Tool: its name, its description for
// the model, its input schema and whether it may run beside other calls.
// Tools embed it and add Prepare.
type Meta struct {
	ToolName    string
	Doc         string
	InputSchema json.RawMessage
	Parallel    bool
}

// NewMeta describes a tool whose input is the struct T (see SchemaOf).
func NewMeta[T any](name, doc string, parallel bool) Meta {
	return Meta{ToolName: name, Doc: doc, InputSchema: SchemaOf[T](), Parallel: parallel}
}

// Name is the tool's name.
func (m Meta) Name() string { return m.ToolName }

// Description is the tool's description for the model.
func (m Meta) Description() string { return m.Doc }

// Schema is the tool's input schema.
func (m Meta) Schema() json.RawMessage { return m.InputSchema }

// ConcurrencySafe says whether calls may run beside other safe calls.
func (m Meta) ConcurrencySafe() bool { return m.Parallel }
