package tool

import (
	"encoding/json"
	"reflect"
	"strings"
)

// SchemaOf derives a JSON schema from the input struct T, so a tool's
// schema and its parsing can never disagree. Fields take their names from
// `json` tags; a field is required unless its tag says omitempty. A `desc`
// tag describes the field and an `enum` tag lists allowed values, separated
// by commas. The object forbids additional properties.
func SchemaOf[T any]() json.RawMessage {
	var zero T
	out, err := json.Marshal(schemaFor(reflect.TypeOf(zero)))
	if err != nil {
		panic(err) // only maps of strings and slices: cannot fail
	}
	return out
}

func schemaFor(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaFor(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaFor(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			s := schemaFor(f.Type)
			if d := f.Tag.Get("desc"); d != "" {
				s["description"] = d
			}
			if e := f.Tag.Get("enum"); e != "" {
				s["enum"] = strings.Split(e, ",")
			}
			props[name] = s
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				required = append(required, name)
			}
		}
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	return map[string]any{}
}
