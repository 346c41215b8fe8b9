package jsonfloat

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// AppendObject appends the key–value pairs kv (key, value, key, value, …)
// as one line of JSON, an object ending in a newline. Values are float64
// (in the form of Append), int, bool, string or []byte (raw JSON, written
// as is). It panics on a value of another type or a key that is not a
// string.
func AppendObject(dst []byte, kv ...any) []byte {
	b := append(dst, '{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, kv[i].(string))
		b = append(b, ':')
		switch v := kv[i+1].(type) {
		case float64:
			b = Append(b, v)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case string:
			q, _ := json.Marshal(v) // a string always encodes
			b = append(b, q...)
		case []byte:
			b = append(b, v...)
		default:
			panic(fmt.Sprintf("jsonfloat: AppendObject of a %T", v))
		}
	}
	return append(b, '}', '\n')
}
