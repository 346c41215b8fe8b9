// Package jsonscan is the lexical layer shared by the JSON Lines readers of
// packages labeldist and dataset: it reads input line by line and scans the
// tokens of RFC 8259 JSON on one line.
//
// It does:
//
//   - read the lines of the input that are not blank, of any length,
//     without copying those that fit in its buffer, without their line
//     endings and the byte order mark of the first line (Lines);
//   - skip JSON white space, and read JSON numbers with their exact grammar
//     ("-", "01", "1.", ".5", "1e", "+1" are not numbers; "01" is the number
//     0 followed by other text) as float64, telling a number that overflows
//     float64 from malformed text (a number that underflows reads as 0);
//   - read JSON strings, with their escapes and the ban on unescaped control
//     characters, either decoded (Scanner.Str, which turns invalid UTF-8 into
//     U+FFFD as encoding/json does) or as the raw token (Scanner.RawStr), so
//     that plain names can be looked up without allocating;
//   - describe the text at the read position for error messages (Found,
//     Snippet, Word, What), and give 1-based columns on the physical line,
//     counting the bytes removed before the line (a byte order mark).
//
// It does not parse structure (objects, arrays, the literals true, false and
// null), know which keys are allowed, or decide which problems are errors
// for the caller beyond the lexical ones: that is the business of the
// packages that use it. Its *Error values are neutral, a Code, a position
// and a column; each caller turns them into its own error values, with its
// own sentinel errors and wording.
//
// Number, RawStr and the other Scanner methods allocate nothing except
// error values and messages; Str allocates its result (as any Go string of
// more than one byte from a []byte), and Str and StrRaw call encoding/json
// only for strings that hold escapes or invalid UTF-8, the only ones StrRaw
// allocates for. Number converts numbers of up to 19 significant digits
// itself, with strconv.ParseFloat's result, and calls strconv for the rare
// others.
package jsonscan
