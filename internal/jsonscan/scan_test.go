package jsonscan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// TestNumber checks Number against the number grammar of RFC 8259 §6,
// applied by hand. The expected values are Go constants, which the compiler
// rounds exactly to the nearest float64: an independent reference for
// strconv.ParseFloat.
func TestNumber(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		in   string
		want float64
		end  int  // Pos after the call
		code Code // 0: no error
		pos  int  // Error.Pos
	}{
		{in: "0", want: 0, end: 1},
		{in: "-0", want: negZero, end: 2},
		{in: "7", want: 7, end: 1},
		{in: "-12.5e-1", want: -1.25, end: 8},
		{in: "1E+2", want: 100, end: 4},
		{in: "1e2", want: 100, end: 3},
		{in: "0.000", want: 0, end: 5},
		{in: "0.1", want: 0.1, end: 3},
		{in: "123456789012345678901234567890", want: 123456789012345678901234567890, end: 30},
		{in: "5e-324", want: 5e-324, end: 6},                               // the least subnormal
		{in: "1.7976931348623157e308", want: math.MaxFloat64, end: 22},     // the largest float64
		{in: "1e-400", want: 0, end: 6},                                    // underflow: 0, no error
		{in: "-1e-400", want: negZero, end: 7},                             // underflow keeps the sign
		{in: "0e99999999999999999999", want: 0, end: 22},                   // zero with a huge exponent
		{in: "01", want: 0, end: 1},                                        // the number 0, then other text
		{in: "-01", want: negZero, end: 2},                                 // ditto
		{in: "0x10", want: 0, end: 1},                                      // ditto
		{in: "1.5,", want: 1.5, end: 3},                                    // stops at the comma
		{in: "2]", want: 2, end: 1},                                        // stops at the bracket
		{in: "1.5e3x", want: 1500, end: 5},                                 // stops at the letter
		{in: "1 2", want: 1, end: 1},                                       // white space ends a number
		{in: "-", end: 0, code: NoInt, pos: 1},                             // no digit after '-'
		{in: "-a", end: 0, code: NoInt, pos: 1},                            // ditto
		{in: "--1", end: 0, code: NoInt, pos: 1},                           // ditto
		{in: "-.5", end: 0, code: NoInt, pos: 1},                           // ditto
		{in: "1.", end: 0, code: NoFraction, pos: 2},                       // no digit after '.'
		{in: "1.e5", end: 0, code: NoFraction, pos: 2},                     // ditto
		{in: "-0.x", end: 0, code: NoFraction, pos: 3},                     // ditto
		{in: "1e", end: 0, code: NoExponent, pos: 2},                       // no digit in the exponent
		{in: "1e+", end: 0, code: NoExponent, pos: 3},                      // ditto
		{in: "1E-x", end: 0, code: NoExponent, pos: 3},                     // ditto
		{in: "1.5e", end: 0, code: NoExponent, pos: 4},                     // ditto
		{in: ".5", end: 0, code: NotNumber, pos: 0},                        // a number starts with '-' or a digit
		{in: "+1", end: 0, code: NotNumber, pos: 0},                        // ditto
		{in: "", end: 0, code: NotNumber, pos: 0},                          // ditto
		{in: " 1", end: 0, code: NotNumber, pos: 0},                        // Number does not skip space
		{in: "NaN", end: 0, code: NotNumber, pos: 0},                       // not JSON
		{in: "Infinity", end: 0, code: NotNumber, pos: 0},                  // not JSON
		{in: `"1"`, end: 0, code: NotNumber, pos: 0},                       // a string
		{in: "1e999", want: math.Inf(1), end: 5, code: Overflow, pos: 0},   // > MaxFloat64
		{in: "-1e999", want: math.Inf(-1), end: 6, code: Overflow, pos: 0}, // ditto, negative
		{in: "1.8e308", want: math.Inf(1), end: 7, code: Overflow, pos: 0}, // just above MaxFloat64
		{in: "1e99999999999999999999", want: math.Inf(1), end: 22, code: Overflow},
	} {
		s := Scanner{Line: []byte(tc.in)}
		v, e := s.Number()
		if s.Pos != tc.end {
			t.Errorf("%q: Pos = %d, want %d", tc.in, s.Pos, tc.end)
		}
		if tc.code == 0 {
			if e != nil {
				t.Errorf("%q: error %v", tc.in, e)
			} else if math.Float64bits(v) != math.Float64bits(tc.want) {
				t.Errorf("%q: %v, want %v", tc.in, v, tc.want)
			}
			continue
		}
		if e == nil || e.Code != tc.code || e.Pos != tc.pos || e.Col != tc.pos+1 {
			t.Errorf("%q: error %+v, want code %v at %d", tc.in, e, tc.code, tc.pos)
			continue
		}
		if tc.code == Overflow {
			if v != tc.want || !errors.Is(e, strconv.ErrRange) {
				t.Errorf("%q: overflow gives %v, %v", tc.in, v, e)
			}
		}
	}
}

// TestStr checks Str and RawStr against the string grammar of RFC 8259 §7,
// applied by hand, with the values of the escapes worked out by hand. Str
// reports the first problem from the left; RawStr only the end of the token
// (control characters outside escapes, a missing closing quote).
func TestStr(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     string // Str's value
		end      int    // Pos after a successful call
		code     Code   // Str's error, 0 if none
		pos      int    // its position
		rawCode  Code   // RawStr's error, 0 if none
		rawPos   int    // its position
		escaped  bool   // RawStr's escaped
		unquoted bool   // whether RawStr's token passes Unquote
	}{
		{in: `""`, want: "", end: 2, unquoted: true},
		{in: `"abc"`, want: "abc", end: 5, unquoted: true},
		{in: `"a"b`, want: "a", end: 3, unquoted: true},
		{in: "\"a\x7fb\"", want: "a\x7fb", end: 5, unquoted: true},         // DEL is not a control character in JSON
		{in: "\"caf\xc3\xa9\"", want: "café", end: 7, unquoted: true},      // valid UTF-8
		{in: "\"\xff\"", want: "\uFFFD", end: 3, unquoted: true},           // invalid UTF-8 becomes U+FFFD
		{in: "\"a\xc3\"", want: "a\uFFFD", end: 4, unquoted: true},         // truncated sequence
		{in: `"a\"b"`, want: `a"b`, end: 6, escaped: true, unquoted: true}, // escaped quote
		{in: `"\\\/\b\f\n\r\t"`, want: "\\/\b\f\n\r\t", end: 16, escaped: true, unquoted: true},
		{in: `"\u0041\u00e9\u20AC"`, want: "Aé€", end: 20, escaped: true, unquoted: true},
		{in: `"\uD83D\uDE00"`, want: "\U0001F600", end: 14, escaped: true, unquoted: true}, // a surrogate pair
		{in: `"\ud800"`, want: "\uFFFD", end: 8, escaped: true, unquoted: true},            // an unpaired surrogate
		{in: `"\u0000"`, want: "\x00", end: 8, escaped: true, unquoted: true},              // NUL, escaped
		{in: `"abc`, code: Unterminated, rawCode: Unterminated},
		{in: `"`, code: Unterminated, rawCode: Unterminated},
		{in: `"abc\`, code: Unterminated, rawCode: Unterminated},         // a backslash at the end
		{in: `"abc\"`, code: Unterminated, rawCode: Unterminated},        // the quote is escaped
		{in: `"\q"`, code: BadEscape, pos: 1, escaped: true},             // not an escape
		{in: `"\U0041"`, code: BadEscape, pos: 1, escaped: true},         // \U is not \u
		{in: `"\'"`, code: BadEscape, pos: 1, escaped: true},             // nor is \'
		{in: `"\u12"`, code: BadUnicode, pos: 1, escaped: true},          // three digits
		{in: `"\u12G4"`, code: BadUnicode, pos: 1, escaped: true},        // not hexadecimal
		{in: `"ab\u00`, code: BadUnicode, pos: 3, rawCode: Unterminated}, // at the end of the line
		{in: "\"a\x01\"", code: ControlChar, pos: 2, rawCode: ControlChar, rawPos: 2},
		{in: "\"\x00\"", code: ControlChar, pos: 1, rawCode: ControlChar, rawPos: 1},
		{in: "\"a\tb\"", code: ControlChar, pos: 2, rawCode: ControlChar, rawPos: 2},
		{in: "\"a\x1f\"", code: ControlChar, pos: 2, rawCode: ControlChar, rawPos: 2},
		// Str stops at the first problem; RawStr skips the bad escape.
		{in: "\"\\q\x01\"", code: BadEscape, pos: 1, rawCode: ControlChar, rawPos: 3},
		{in: `"\q`, code: BadEscape, pos: 1, rawCode: Unterminated},
		{in: "\"\\\x01\"", code: BadEscape, pos: 1, escaped: true}, // a control character after '\'
		{in: "\"\\\n\"", code: BadEscape, pos: 1, escaped: true},   // ditto
		{in: "\"\\\xff\"", code: BadEscape, pos: 1, escaped: true}, // a byte outside ASCII after '\': RawStr's token is not ASCII
	} {
		s := Scanner{Line: []byte(tc.in), Col0: 3}
		v, e := s.Str()
		switch {
		case tc.code == 0 && e != nil:
			t.Errorf("Str(%q): error %v", tc.in, e)
		case tc.code == 0 && (v != tc.want || s.Pos != tc.end):
			t.Errorf("Str(%q) = %q with Pos %d, want %q and %d", tc.in, v, s.Pos, tc.want, tc.end)
		case tc.code != 0 && (e == nil || e.Code != tc.code || e.Pos != tc.pos || e.Col != tc.pos+4 || s.Pos != 0):
			t.Errorf("Str(%q): error %+v and Pos %d, want code %v at %d", tc.in, e, s.Pos, tc.code, tc.pos)
		}

		s.Pos = 0
		tok, escaped, ascii, e := s.RawStr()
		switch {
		case tc.rawCode != 0:
			if e == nil || e.Code != tc.rawCode || e.Pos != tc.rawPos || e.Col != tc.rawPos+4 || s.Pos != 0 {
				t.Errorf("RawStr(%q): error %+v and Pos %d, want code %v at %d", tc.in, e, s.Pos, tc.rawCode, tc.rawPos)
			}
			continue
		case e != nil:
			t.Errorf("RawStr(%q): error %v", tc.in, e)
			continue
		case ascii != isASCII(tok):
			t.Errorf("RawStr(%q) says ASCII %t", tc.in, ascii)
		case escaped != tc.escaped || string(tok) != tc.in[:s.Pos] || tok[len(tok)-1] != '"':
			t.Errorf("RawStr(%q) = %q, %t with Pos %d", tc.in, tok, escaped, s.Pos)
		}
		u, err := Unquote(tok)
		if (err == nil) != tc.unquoted || err == nil && u != tc.want {
			t.Errorf("Unquote(%q) = %q, %v", tok, u, err)
		}
	}
}

func TestStrPanics(t *testing.T) {
	for _, in := range []string{"", "x", ` "a"`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Str(%q) did not panic", in)
				}
			}()
			s := Scanner{Line: []byte(in)}
			s.Str()
		}()
	}
}

// TestColumns checks the columns of errors and of Msgf: 1-based, counting
// Col0 bytes before the line (here a byte order mark), worked out by hand.
func TestColumns(t *testing.T) {
	line, col0 := trimLine([]byte(BOM+`[1, 2.]`+"\r\n"), true)
	var s Scanner
	s.Reset(line, col0)
	s.Pos = 4 // "2."
	_, e := s.Number()
	// BOM (3 bytes), then "[1, 2." is columns 4 to 9; the missing digit is
	// at column 10, byte 6 of the line.
	if e == nil || e.Code != NoFraction || e.Pos != 6 || e.Col != 10 {
		t.Errorf("error %+v, want NoFraction at byte 6, column 10", e)
	}
	if got, want := e.Error(), "column 10: no digit after the decimal point"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := s.Msgf(0, "found %s", "x"), "column 4: found x"; got != want {
		t.Errorf("Msgf = %q, want %q", got, want)
	}
	s.Reset([]byte("1e999"), 0)
	_, e = s.Number()
	if got, want := e.Error(), `column 1: number overflows float64: strconv.ParseFloat: parsing "1e999": value out of range`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestTrimLine(t *testing.T) {
	for _, tc := range []struct {
		in    string
		first bool
		want  string
		col0  int
	}{
		{"abc", true, "abc", 0},
		{"abc\n", false, "abc", 0},
		{"abc\r\n", false, "abc", 0},
		{"abc\r", false, "abc", 0}, // at the end of the input
		{"a\rb\n", false, "a\rb", 0},
		{"\n", true, "", 0},
		{BOM + "{}\r\n", true, "{}", 3},
		{BOM + "{}\n", false, BOM + "{}", 0}, // a BOM only on the first line
		{BOM, true, "", 3},
		{"\xef\xbb{}", true, "\xef\xbb{}", 0}, // not a whole BOM
	} {
		got, col0 := trimLine([]byte(tc.in), tc.first)
		if string(got) != tc.want || col0 != tc.col0 {
			t.Errorf("trimLine(%q, %t) = %q, %d, want %q, %d", tc.in, tc.first, got, col0, tc.want, tc.col0)
		}
	}
}

func TestBlank(t *testing.T) {
	// JSON white space is space, tab, CR and LF only (RFC 8259 §2).
	for in, want := range map[string]bool{"": true, " \t\r\n": true, "\v": false, "\f": false, "\u00a0": false, " x": false} {
		if blank([]byte(in)) != want {
			t.Errorf("blank(%q) = %t", in, !want)
		}
	}
	s := Scanner{Line: []byte(" \t\r\n x")}
	if s.SkipSpace(); s.Pos != 5 || s.Peek() != 'x' {
		t.Errorf("SkipSpace: Pos %d", s.Pos)
	}
	if s.Pos = 6; s.Peek() != 0 {
		t.Errorf("Peek at the end: %q", s.Peek())
	}
}

// TestLines reads an input with a byte order mark, CRLF line endings,
// blank lines, a line longer than the buffer and no final newline; the
// expected lines and numbers are worked out by hand.
func TestLines(t *testing.T) {
	long := strings.Repeat("[1, 2, 3]", 10000)
	in := BOM + "{}\r\n \t\r\n\n" + long + "\n\r\n\v\nlast"
	type line struct {
		text      string
		col0, num int
	}
	want := []line{{"{}", 3, 1}, {long, 0, 4}, {"\v", 0, 6}, {"last", 0, 7}}
	var got []line
	lines := NewLines(strings.NewReader(in))
	for lines.Next() {
		b, col0 := lines.Line()
		got = append(got, line{string(b), col0, lines.Num()})
	}
	if lines.Err() != nil || lines.Next() {
		t.Errorf("error %v at the end", lines.Err())
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %.20q, col0 %d, number %d, want %.20q, %d, %d", i, got[i].text, got[i].col0, got[i].num, want[i].text, want[i].col0, want[i].num)
		}
	}

	boom := errors.New("boom")
	lines = NewLines(io.MultiReader(strings.NewReader("{}\n{"), iotest.ErrReader(boom)))
	if !lines.Next() || lines.Next() || lines.Err() != boom || lines.Num() != 2 {
		t.Errorf("read error: %v on line %d", lines.Err(), lines.Num())
	}
}

// TestReadLine reads lines shorter and longer than the reader's buffer (16
// bytes, bufio's least), with and without a final newline.
func TestReadLine(t *testing.T) {
	lines := []string{"short\n", strings.Repeat("long ", 10) + "\n", "\n", strings.Repeat("x", 40)}
	br := bufio.NewReaderSize(strings.NewReader(strings.Join(lines, "")), 16)
	var buf []byte
	for i, want := range lines {
		got, err := readLine(br, &buf, MaxLine)
		if string(got) != want {
			t.Errorf("line %d: %q, want %q", i, got, want)
		}
		wantErr := error(nil)
		if i == len(lines)-1 {
			wantErr = io.EOF
		}
		if err != wantErr {
			t.Errorf("line %d: error %v, want %v", i, err, wantErr)
		}
	}
	if got, err := readLine(br, &buf, MaxLine); len(got) != 0 || err != io.EOF {
		t.Errorf("after the end: %q, %v", got, err)
	}
}

// TestDescribe checks the descriptions for messages, worked out by hand.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		in                         string
		pos                        int
		found, snippet, word, what string
	}{
		{"", 0, "end of line", "the end of the line", "end of line", "end of line"},
		{"ab", 2, "end of line", "the end of the line", "end of line", "end of line"},
		{"\xff1", 0, "byte 0xff", `"\xff1"`, "byte 0xff", "byte 0xff"},
		{"é}", 0, "'é'", `"é}"`, "'é'", "'é'"},
		{"tru}", 0, "'t'", `"tru}"`, `"tru"`, `"tru"`},
		{"true,", 0, "'t'", `"true,"`, `"true"`, "true"},
		{"false", 0, "'f'", `"false"`, `"false"`, "false"},
		{"null]", 0, "'n'", `"null]"`, `"null"`, "null"},
		{`"x"`, 0, `'"'`, `"\"x\""`, `'"'`, "a string"},
		{"-1e5", 0, "'-'", `"-1e5"`, `"-1e5"`, "a number"},
		{"NaN", 0, "'N'", `"NaN"`, `"NaN"`, `"NaN"`},
		{"{}", 0, "'{'", `"{}"`, "'{'", "'{'"},
		{"0123456789abcdefghij", 0, "'0'", `"0123456789abcdef…"`, `"0123456789abcdefghij"`, "a number"},
		{"ééééééééé", 0, "'é'", `"éééééééé…"`, "'é'", "'é'"},                                                              // 16 bytes, 8 characters
		{"\xffé\xffé\xffé\xffé\xffé\xffé!", 0, "byte 0xff", `"\xffé\xffé\xffé\xffé\xffé\xff…"`, "byte 0xff", "byte 0xff"}, // 16 bytes
		{strings.Repeat("a", 50), 0, "'a'", `"aaaaaaaaaaaaaaaa…"`, strconv.Quote(strings.Repeat("a", 40)), strconv.Quote(strings.Repeat("a", 40))},
	} {
		s := Scanner{Line: []byte(tc.in), Pos: tc.pos}
		if got := s.Found(); got != tc.found {
			t.Errorf("Found(%q) = %s, want %s", tc.in, got, tc.found)
		}
		if got := s.Snippet(); got != tc.snippet {
			t.Errorf("Snippet(%q) = %s, want %s", tc.in, got, tc.snippet)
		}
		if got := s.Word(); got != tc.word {
			t.Errorf("Word(%q) = %s, want %s", tc.in, got, tc.word)
		}
		if got := s.What(); got != tc.what {
			t.Errorf("What(%q) = %s, want %s", tc.in, got, tc.what)
		}
	}
}

func TestCodeString(t *testing.T) {
	if got := Overflow.String(); got != "number overflows float64" {
		t.Errorf("Overflow.String() = %q", got)
	}
	if got := Code(0).String(); got != "Code(0)" {
		t.Errorf("Code(0).String() = %q", got)
	}
	if got := Code(99).String(); got != "Code(99)" {
		t.Errorf("Code(99).String() = %q", got)
	}
}

// FuzzScan checks Number, Str and RawStr against encoding/json on an input
// that holds one JSON value with white space around it: the scanner accepts
// the whole input as a number or a string exactly when encoding/json finds
// it valid JSON of that kind, with the same value (a number that overflows
// float64 is valid JSON that encoding/json will not decode into a float64,
// and that Number reports as Overflow).
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"0", "-0", " 12.5e-3 ", "01", "-", "1.", ".5", "1e", "1e+", "1e999", "-1e-400", "1e308", "+1",
		`""`, `"abc"`, `"a\"b"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"\q"`, `"\u12"`,
		"\"a\x01\"", `"abc`, `"abc\`, "\"\\\x01\"", ` "x" `, `"x" "y"`, "\t-0.0E-0\r\n", "true", "[1]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		start := skipSpace(in, 0)
		valid := json.Valid(in)
		isNum := valid && start < len(in) && (in[start] == '-' || '0' <= in[start] && in[start] <= '9')
		isStr := valid && start < len(in) && in[start] == '"'

		s := Scanner{Line: in, Col0: 2}
		s.SkipSpace()
		if s.Pos != start {
			t.Fatalf("SkipSpace: Pos %d, want %d", s.Pos, start)
		}
		v, e := s.Number()
		if e != nil {
			if e.Col != e.Pos+3 || e.Pos < start || e.Pos > len(in) {
				t.Fatalf("%q: error %+v", in, e)
			}
			if e.Code != Overflow && s.Pos != start {
				t.Fatalf("%q: error %v moved Pos to %d", in, e, s.Pos)
			}
		}
		whole := (e == nil || e.Code == Overflow) && blank(in[s.Pos:])
		if whole != isNum {
			t.Fatalf("%q: Number %v, error %v, stops at %d; encoding/json says number %t", in, v, e, s.Pos, isNum)
		}
		if isNum {
			var want float64
			err := json.Unmarshal(in, &want)
			switch {
			case err != nil && e == nil:
				t.Fatalf("%q: Number %v, encoding/json: %v", in, v, err)
			case err == nil && e != nil:
				t.Fatalf("%q: Number error %v, encoding/json %v", in, e, want)
			case err == nil && math.Float64bits(v) != math.Float64bits(want):
				t.Fatalf("%q: Number %v, encoding/json %v", in, v, want)
			case err != nil && !math.IsInf(v, 0):
				t.Fatalf("%q: overflow gives %v", in, v)
			}
		}

		s.Pos = start
		if s.Peek() != '"' {
			return
		}
		str, e := s.Str()
		if e != nil && (e.Col != e.Pos+3 || e.Pos < start || e.Pos >= len(in) || s.Pos != start) {
			t.Fatalf("%q: Str error %+v, Pos %d", in, e, s.Pos)
		}
		strEnd := s.Pos
		s.Pos = start
		raw, sv, re := s.StrRaw()
		if got := labelOf(raw, sv); got != str || s.Pos != strEnd || (re == nil) != (e == nil) || re != nil && *re != *e {
			t.Fatalf("%q: Str %q, %v, ends at %d; StrRaw %q, %q, %v, ends at %d", in, str, e, strEnd, raw, sv, re, s.Pos)
		}
		if raw != nil && (bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw)) {
			t.Fatalf("%q: StrRaw returns raw %q", in, raw)
		}
		s.Pos = strEnd
		if whole := e == nil && blank(in[s.Pos:]); whole != isStr {
			t.Fatalf("%q: Str %q, error %v, stops at %d; encoding/json says string %t", in, str, e, s.Pos, isStr)
		}
		s.Pos = start
		tok, escaped, ascii, re := s.RawStr()
		if e == nil && (re != nil || s.Pos != strEnd) {
			t.Fatalf("%q: Str ends at %d, RawStr at %d with error %v", in, strEnd, s.Pos, re)
		}
		if re == nil && ascii != isASCII(tok) {
			t.Fatalf("%q: RawStr says ASCII %t", in, ascii)
		}
		if re == nil && escaped != bytes.Contains(tok, []byte{'\\'}) {
			t.Fatalf("%q: RawStr says escaped %t", in, escaped)
		}
		if isStr {
			var want string
			if err := json.Unmarshal(in, &want); err != nil {
				t.Fatalf("%q: valid, but encoding/json: %v", in, err)
			}
			if str != want {
				t.Fatalf("%q: Str %q, encoding/json %q", in, str, want)
			}
			if u, err := Unquote(tok); err != nil || u != want {
				t.Fatalf("%q: RawStr, Unquote: %q, %v", in, u, err)
			}
		}
	})
}

// labelOf returns StrRaw's string: raw if it is not nil, else v.
func labelOf(raw []byte, v string) string {
	if raw != nil {
		return string(raw)
	}
	return v
}

// isASCII reports, byte by byte, whether b holds only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// TestLinesMax reads lines at and past the longest read: a line of max
// bytes (with CRLF, or a byte order mark on the first) is read, one of
// max+1 ends the reading with a *LineError at its line, and a line of
// 64 MiB under a limit of 1 MiB is refused having read little more than
// the limit.
func TestLinesMax(t *testing.T) {
	const max = 100_000
	line := strings.Repeat("x", max)
	for _, tc := range []struct {
		in      string
		lines   int // lines read before the end
		errLine int // the line of the error, 0 for none
	}{
		{"[1]\n" + line + "\n[2]\n", 3, 0},
		{"[1]\r\n" + line + "\r\n", 2, 0},
		{BOM + line + "\n", 1, 0},
		{line, 1, 0},
		{"[1]\n" + line + "x\n[2]\n", 1, 2},
		{"[1]\n\n" + line + "x", 1, 3},
		{BOM + line + "x\n", 0, 1},
	} {
		l := NewLines(strings.NewReader(tc.in))
		l.SetMax(max)
		n := 0
		for l.Next() {
			n++
		}
		var le *LineError
		switch {
		case n != tc.lines:
			t.Errorf("%.20q…: %d lines read, want %d", tc.in, n, tc.lines)
		case tc.errLine == 0 && l.Err() != nil:
			t.Errorf("%.20q…: error %v", tc.in, l.Err())
		case tc.errLine > 0 && (!errors.As(l.Err(), &le) || le.Max != max || l.Num() != tc.errLine):
			t.Errorf("%.20q…: error %v at line %d, want a LineError at line %d", tc.in, l.Err(), l.Num(), tc.errLine)
		}
	}
	cr := &countingReader{r: strings.NewReader(strings.Repeat("y", 64<<20))}
	l := NewLines(cr)
	l.SetMax(1 << 20)
	if l.Next() || !errors.Is(l.Err(), fileerr.ErrTooLarge) {
		t.Errorf("64 MiB line: error %v, want ErrTooLarge", l.Err())
	}
	if cr.n > 1<<20+128<<10 || cap(l.buf) > 1<<20+128<<10 {
		t.Errorf("64 MiB line under 1 MiB: read %d bytes into a buffer of %d", cr.n, cap(l.buf))
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
