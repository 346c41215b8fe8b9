package docknn

import "strings"

// StripHeaders returns text without the header block that e-mail and news
// posts begin with (20 Newsgroups: From:, Subject:, Organization:, Lines:
// …), keeping the value of its Subject line, less any "Re:" prefixes, as
// the first line. A header block is one or more lines "Name: value" at the
// very start of the text (Name printable ASCII without spaces or colons;
// lines starting with a space or a tab continue the line before), ended by
// a blank line or the end of the text. A text that does not start so is
// returned as it is.
func StripHeaders(text string) string {
	rest := text
	var subject strings.Builder
	inSubject := false
	headers := 0
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
			if headers == 0 {
				return text
			}
			rest = after
			return strings.TrimSpace(subject.String()) + "\n" + rest
		case line[0] == ' ' || line[0] == '\t':
			if headers == 0 {
				return text
			}
			if inSubject {
				subject.WriteString(line)
			}
		default:
			name, value, ok := strings.Cut(line, ":")
			if !ok || !headerName(name) {
				return text
			}
			headers++
			inSubject = strings.EqualFold(name, "subject")
			if inSubject {
				subject.WriteString(trimRe(value))
			}
		}
		rest = after
	}
	return strings.TrimSpace(subject.String())
}

// headerName reports whether s is a header's name: printable ASCII without
// spaces or colons (RFC 5322), at least one character.
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || c == ':' {
			return false
		}
	}
	return true
}

// trimRe removes leading "Re:" prefixes (any case) and spaces.
func trimRe(s string) string {
	for {
		s = strings.TrimSpace(s)
		if len(s) < 3 || !strings.EqualFold(s[:3], "re:") {
			return s
		}
		s = s[3:]
	}
}
