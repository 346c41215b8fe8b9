package metadata

import (
	"slices"
	"strings"
	"testing"
)

const sample = "# a comment\n" +
	"sample-id\tbody-site\tdays\tnote\n" +
	"#q2:types\tcategorical\tnumeric\n" +
	"\n" +
	"S1\tgut\t0\t\"a \"\"quoted\"\" value\"\n" +
	"# another comment\n" +
	"S2\t tongue \t14\n" +
	"S3\tgut\t\t\r\n"

func TestRead(t *testing.T) {
	tab, err := Read(strings.NewReader(sample), "m.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if tab.IDName != "sample-id" || !slices.Equal(tab.Columns, []string{"body-site", "days", "note"}) {
		t.Errorf("header %q %q", tab.IDName, tab.Columns)
	}
	if !slices.Equal(tab.Types, []string{"categorical", "numeric", ""}) {
		t.Errorf("types %q", tab.Types)
	}
	if !slices.Equal(tab.IDs, []string{"S1", "S2", "S3"}) {
		t.Errorf("ids %q", tab.IDs)
	}
	want := [][]string{{"gut", "0", `a "quoted" value`}, {"tongue", "14", ""}, {"gut", "", ""}}
	for i, row := range want {
		if !slices.Equal(tab.Values[i], row) {
			t.Errorf("row %d = %q, want %q", i, tab.Values[i], row)
		}
	}
	got, err := tab.Lookup([]string{"S3", "S1"}, "body-site")
	if err != nil || !slices.Equal(got, []string{"gut", "gut"}) {
		t.Errorf("Lookup = %q, %v", got, err)
	}
	if !tab.Numeric(1) || tab.Numeric(0) || tab.Numeric(2) {
		t.Error("Numeric: want only days")
	}
}

func TestHashHeader(t *testing.T) {
	tab, err := Read(strings.NewReader("#SampleID\tx\nA\t1.5\nB\t2\n"), "m.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if tab.IDName != "#SampleID" || len(tab.IDs) != 2 || !tab.Numeric(0) {
		t.Errorf("%+v", tab)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "m.tsv: no header row"},
		{"# only\n", "m.tsv: no header row"},
		{"id\ta\ta\n", "m.tsv:1: column \"a\" appears twice"},
		{"id\ta\nS1\tx\nS1\ty\n", "m.tsv:3: sample id \"S1\" appears twice"},
		{"id\ta\nS1\tx\ty\n", "m.tsv:2: sample \"S1\" has 2 values, the header names 1 columns"},
		{"id\ta\n#q2:types\tnumeric\nS1\tten\n", "m.tsv:3: sample \"S1\": column \"a\" is numeric, but its value \"ten\" is not a number"},
		{"id\ta\n#q2:types\tdate\n", "m.tsv:2: column \"a\": type \"date\" is neither"},
		{"id\ta\nS1\tx\n#q2:types\tnumeric\n", "m.tsv:3: #q2:types must come right after the header"},
		{"id\ta\nS1\t\"x\n", "m.tsv:2: cell 2: unterminated double quote"},
		{"id\ta\n\tx\n", "m.tsv:2: empty sample id"},
		{"\ta\n", "m.tsv:1: the header's first cell"},
	} {
		_, err := Read(strings.NewReader(c.in), "m.tsv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestLookupErrors(t *testing.T) {
	tab, err := Read(strings.NewReader("id\tsite\tph\nA\tgut\t7\n"), "m.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Lookup([]string{"A"}, "Site"); err == nil || err.Error() != `no column "Site"; the columns are "site", "ph"` {
		t.Errorf("missing column: %v", err)
	}
	ids := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	if _, err := tab.Lookup(ids, "site"); err == nil || err.Error() != `7 of 8 samples have no metadata: "B", "C", "D", "E", "F" and 2 more` {
		t.Errorf("missing samples: %v", err)
	}
}

// FuzzRead: Read never panics, and what it accepts is consistent: unique
// non-empty ids, rows as wide as the header.
func FuzzRead(f *testing.F) {
	f.Add(sample)
	f.Add("#SampleID\tx\nA\t1\n")
	f.Add("id\ta\n#q2:types\tnumeric\nS\t\"1\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := Read(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for i, id := range tab.IDs {
			if id == "" || seen[id] || len(tab.Values[i]) != len(tab.Columns) {
				t.Fatalf("bad table %+v", tab)
			}
			seen[id] = true
		}
		for c := range tab.Columns {
			tab.Numeric(c)
		}
	})
}
