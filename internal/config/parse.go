package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
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
			warnings = append(warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf("unknown setting %q ignored", joinPath(k.path))})
		}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			line, col := position(data, typ.Offset)
			return s, nil, &Error{File: file, Line: line, Col: col,
				Msg: fmt.Sprintf("setting %q must be %s, not %s", typePath(keys, typ), describeType(typ.Type), typ.Value)}
		}
		return s, nil, &Error{File: file, Msg: err.Error()}
	}
	warnings = append(warnings, dropForeignHooks(file, data, keys, &s)...)
	if field, msg := validate(s); msg != "" {
		e := &Error{File: file, Msg: fmt.Sprintf("setting %q: %s", field, msg)}
		if k, ok := keyFor(keys, field); ok {
			e.Line, e.Col = position(data, k.offset)
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

// keyOffsets lists every object key with its path and byte offset. An
// array element is a path element of its own, "[0]", "[1]"...
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
			for i := 0; dec.More(); i++ {
				p := append(append([]string(nil), path...), "["+strconv.Itoa(i)+"]")
				if err := walk(p); err != nil {
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

// keyFor finds where the setting field is written: its key, else the
// first key inside it (an array element has no key of its own), else the
// key of the nearest setting around it.
func keyFor(keys []keyAt, field string) (keyAt, bool) {
	var inside, around keyAt
	var haveInside, haveAround bool
	for _, k := range keys {
		p := joinPath(k.path)
		switch {
		case p == field:
			return k, true
		case strings.HasPrefix(p, field+".") || strings.HasPrefix(p, field+"["):
			if !haveInside {
				inside, haveInside = k, true
			}
		case strings.HasPrefix(field, p+".") || strings.HasPrefix(field, p+"["):
			if !haveAround || len(k.path) > len(around.path) {
				around, haveAround = k, true
			}
		}
	}
	if haveInside {
		return inside, true
	}
	return around, haveAround
}

// typePath names the setting a type error is about. The decoder names
// struct fields only, not map keys or array elements (hooks.Stop[0]), so
// the key written last before the bad value names it when it is that
// setting.
func typePath(keys []keyAt, typ *json.UnmarshalTypeError) string {
	var last *keyAt
	for i := range keys {
		if keys[i].offset < typ.Offset {
			last = &keys[i]
		}
	}
	if last == nil {
		return typ.Field
	}
	var plain []string
	for _, p := range last.path {
		if !strings.HasPrefix(p, "[") {
			plain = append(plain, p)
		}
	}
	stripped := strings.Join(plain, ".")
	sameLeaf := strings.Contains(typ.Field, ".") && plain[len(plain)-1] == typ.Field[strings.LastIndexByte(typ.Field, '.')+1:]
	if stripped == typ.Field || strings.HasPrefix(stripped, typ.Field+".") || sameLeaf {
		return joinPath(last.path)
	}
	return typ.Field
}

// joinPath writes a key path the way errors name it:
// hooks.PreToolUse[0].hooks[1].
func joinPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
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
	if t.Kind() == reflect.Slice {
		if elem := schemaOf(t.Elem()); elem != nil {
			return schema{"[]": elem} // any element
		}
		return nil
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
		if strings.HasPrefix(p, "[") {
			p = "[]"
		}
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
		elem := describeType(t.Elem())
		if rest, ok := strings.CutPrefix(elem, "an "); ok {
			return "an array of " + rest + "s"
		}
		return "an array of " + strings.TrimPrefix(elem, "a ") + "s"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
