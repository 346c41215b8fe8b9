package textmodel

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
)

// FileKind is what kind of model a file holds, as far as its first bytes
// tell: for a message that sends a user to the command that reads it.
type FileKind int

const (
	OtherFile   FileKind = iota // neither kind of model
	TextModel                   // a model of this package, Write's format
	LinearModel                 // a model of package model ('twl train'): JSON with "format": "twl-model"
)

// headBytes is how much of a file KindOfFile reads.
const headBytes = 64 << 10

// KindOf tells the kind of model from head, the first bytes of a file (the
// first 64 KiB are plenty).
func KindOf(head []byte) FileKind {
	if bytes.HasPrefix(head, []byte(Magic+"\n")) {
		return TextModel
	}
	// A linear model is a JSON object whose "format" is "twl-model";
	// scan its top-level keys until that one.
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return OtherFile
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return OtherFile
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return OtherFile
		}
		if k == "format" {
			if string(bytes.TrimSpace(v)) == `"twl-model"` {
				return LinearModel
			}
			return OtherFile
		}
	}
	return OtherFile
}

// KindOfFile is KindOf for the first bytes of the file at path; a file
// that cannot be read is OtherFile.
func KindOfFile(path string) FileKind {
	f, err := os.Open(path)
	if err != nil {
		return OtherFile
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, headBytes))
	return KindOf(head)
}
