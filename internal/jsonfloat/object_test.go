package jsonfloat

import (
	"math"
	"testing"
)

func TestAppendObject(t *testing.T) {
	got := string(AppendObject([]byte("x"), "a", 1.5, "b", 2, "c", true, "d", "q\"", "e", []byte(`[1]`), "f", math.Inf(-1)))
	// Written by hand from the rules of AppendObject and Append.
	want := `x{"a":1.5,"b":2,"c":true,"d":"q\"","e":[1],"f":"-Inf"}` + "\n"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
