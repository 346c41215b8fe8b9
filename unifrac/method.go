package unifrac

import (
	"fmt"
	"strings"
)

// Methods lists the methods in the order of their documentation.
var Methods = []Method{WeightedNormalized, WeightedUnnormalized, Unweighted, UnweightedUnnormalized, Generalized}

// MethodNames returns the names of Methods, comma-separated.
func MethodNames() string {
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = m.String()
	}
	return strings.Join(names, ", ")
}

// ParseMethod returns the method named s, as Method.String spells it.
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown method %q (available: %s)", s, MethodNames())
}
