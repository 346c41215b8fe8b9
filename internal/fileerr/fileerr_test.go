package fileerr

import (
	"errors"
	"testing"
)

func TestError(t *testing.T) {
	bad := errors.New("bad thing")
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f.txt", Line: 3, Err: bad, Msg: "x"}, "f.txt:3: bad thing: x"},
		{Error{File: "f.txt", Err: bad}, "f.txt: bad thing"},
		{Error{Line: 2, Err: bad, Msg: "y"}, "line 2: bad thing: y"},
		{Error{Err: bad}, "bad thing"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
		if !errors.Is(&tc.e, bad) {
			t.Errorf("%+v does not unwrap to its sentinel", tc.e)
		}
	}
}
