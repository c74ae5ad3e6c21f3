package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Error is a settings file that cannot be used, with where the problem is.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Warning is something in a settings file that ponder ignores.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Msg)
}

// parse reads one settings file's content. Unknown keys are kept out of
// the result and reported as warnings; syntax errors, wrong types and bad
// values are errors naming the line.
func parse(file string, data []byte) (Settings, []Warning, error) {
	var s Settings
	if len(bytes.TrimSpace(data)) == 0 {
		return s, []Warning{{File: file, Msg: "file is empty; ignored"}}, nil
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, syn.Offset)
			return s, nil, &Error{File: file, Line: line, Col: col, Msg: "invalid JSON: " + syn.Error()}
		}
		return s, nil, &Error{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	if _, ok := generic.(map[string]any); !ok {
		return s, nil, &Error{File: file, Line: 1, Col: 1, Msg: "settings must be a JSON object"}
	}
	keys, err := keyOffsets(data)
	if err != nil {
		return s, nil, &Error{File: file, Msg: err.Error()}
	}
	var warnings []Warning
	known := schemaOf(reflect.TypeOf(Settings{}))
	for _, k := range keys {
		if !known.has(k.path) {
			line, _ := position(data, k.offset)
			warnings = append(warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf("unknown setting %q ignored", strings.Join(k.path, "."))})
		}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			line, col := position(data, typ.Offset)
			return s, nil, &Error{File: file, Line: line, Col: col,
				Msg: fmt.Sprintf("setting %q must be %s, not %s", typ.Field, describeType(typ.Type), typ.Value)}
		}
		return s, nil, &Error{File: file, Msg: err.Error()}
	}
	if field, msg := validate(s); msg != "" {
		e := &Error{File: file, Msg: fmt.Sprintf("setting %q: %s", field, msg)}
		for _, k := range keys {
			if strings.Join(k.path, ".") == field {
				e.Line, e.Col = position(data, k.offset)
			}
		}
		return s, nil, e
	}
	return s, warnings, nil
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

type keyAt struct {
	path   []string
	offset int64
}

// keyOffsets lists every object key with its path and byte offset. Keys
// inside arrays are not listed: arrays in settings hold plain values.
func keyOffsets(data []byte) ([]keyAt, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []keyAt
	var walk func(path []string) error
	walk = func(path []string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				off := dec.InputOffset()
				keyTok, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := keyTok.(string)
				p := append(append([]string(nil), path...), key)
				out = append(out, keyAt{path: p, offset: off + int64(leadingSpace(data[off:]))})
				if err := walk(p); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := skipValue(dec); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk(nil); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return out, nil
}

func leadingSpace(b []byte) int {
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t' || b[n] == '\n' || b[n] == '\r' || b[n] == ',') {
		n++
	}
	return n
}

func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}

// schema is the tree of known keys.
type schema map[string]schema

func schemaOf(t reflect.Type) schema {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		return schema{"*": schemaOf(t.Elem())} // any key
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	s := schema{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		s[name] = schemaOf(f.Type)
	}
	return s
}

func (s schema) has(path []string) bool {
	cur := s
	for _, p := range path {
		next, ok := cur[p]
		if !ok {
			if next, ok = cur["*"]; !ok {
				return false
			}
		}
		cur = next
	}
	return true
}

func describeType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(describeType(t.Elem()), "a ") + "s"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
