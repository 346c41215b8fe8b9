package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// JSONKeys returns the keys of the JSON object data, in the order they
// stand in it (nested objects' keys are not listed). It reads the text
// token by token, so the order is the one written, not a map's.
func JSONKeys(data []byte) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %v %v", t, err)
	}
	var keys []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
