package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Decode parses a tool's JSON input into T strictly: unknown fields, a
// wrong type or trailing data are errors whose text tells the model which
// field is wrong. Empty input counts as {}.
func Decode[T any](input json.RawMessage) (T, error) {
	var v T
	data := bytes.TrimSpace(input)
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, describeDecodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return v, errors.New("input has data after the JSON object")
	}
	return v, nil
}

func describeDecodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return fmt.Errorf("input must be a JSON object, got %s", typeErr.Value)
		}
		return fmt.Errorf("field %q must be %s, got %s", field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("input is not valid JSON (at byte %d): %v", syntaxErr.Offset, err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("input is not valid JSON: it ends too early")
	}
	return fmt.Errorf("input is not valid: %v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "int", "int64", "int32", "uint", "uint64", "float64", "float32":
		return "a number"
	}
	return goKind
}
