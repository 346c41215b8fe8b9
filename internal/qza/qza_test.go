package qza

import (
	"archive/zip"
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// allocated returns the bytes fn allocates (runtime.MemStats.TotalAlloc,
// garbage included).
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestPayloadBomb reads archives whose entry inflates past the limit:
// declaring its size, it is refused before it is inflated, with
// ErrTooLarge; declaring less (a lie), it is refused when it inflates past
// the size declared (archive/zip counts too). Either way little more than
// the limit is allocated.
func TestPayloadBomb(t *testing.T) {
	const limit = 8 << 20
	for _, tc := range []struct {
		name           string
		size, declared int64
		limit          int64
		tooLarge       bool
	}{
		{"declared", 64 << 20, 64 << 20, limit, true},
		{"declared, default limit", MaxPayload + 1<<20, MaxPayload + 1<<20, 0, true},
		{"lies", 64 << 20, limit - 1000, limit, false},
		{"lies zero", 64 << 20, 0, limit, false},
		{"lies, default limit", MaxPayload + 1<<20, 1000, 0, false},
	} {
		b := hostile.Artifact("feature-table.biom", tc.size, tc.declared)
		var err error
		got := allocated(func() { _, _, err = Payload(b, "feature-table.biom", tc.limit) })
		if err == nil || errors.Is(err, fileerr.ErrTooLarge) != tc.tooLarge {
			t.Errorf("%s: error %v, want one that wraps ErrTooLarge: %v", tc.name, err, tc.tooLarge)
		}
		lim := tc.limit
		if lim == 0 {
			lim = MaxPayload
		}
		if got > uint64(lim)*3/2+1<<20 {
			t.Errorf("%s: allocated %d bytes under a limit of %d", tc.name, got, lim)
		}
	}
	// At the limit exactly, the entry is read.
	b := hostile.Artifact("tree.nwk", limit, limit)
	data, name, err := Payload(b, "tree.nwk", limit)
	if err != nil || len(data) != limit || name != "6f1c2a3e-0000-4000-8000-0000000000ff/data/tree.nwk" {
		t.Errorf("at the limit: %d bytes, %q, %v", len(data), name, err)
	}
}

// FuzzPayload checks that Payload never panics, never returns more than
// its limit, and returns the entry of an archive as archive/zip reads it.
// Seeds: archives made by archive/zip and the bombs of package hostile.
func FuzzPayload(f *testing.F) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("u/data/tree.nwk")
	w.Write([]byte("(a:1,b:2);"))
	w, _ = z.Create("u/metadata.yaml")
	w.Write([]byte("uuid: u\n"))
	z.Close()
	f.Add(buf.Bytes())
	f.Add(hostile.Artifact("tree.nwk", 2<<20, 100))
	f.Add(hostile.ArtifactOf("tree.nwk", bytes.Repeat([]byte("(a,b);"), 100)))
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, b []byte) {
		data, name, err := Payload(b, "tree.nwk", limit)
		if err != nil {
			return
		}
		if len(data) > limit {
			t.Fatalf("%d bytes past the limit %d", len(data), limit)
		}
		// archive/zip reads the same bytes.
		zr, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		for _, zf := range zr.File {
			if zf.Name != name {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if _, err := want.ReadFrom(rc); err != nil {
				t.Fatalf("Payload read %s, archive/zip fails: %v", name, err)
			}
			if !bytes.Equal(data, want.Bytes()) {
				t.Fatalf("%s: %d bytes, archive/zip reads %d", name, len(data), want.Len())
			}
		}
	})
}
