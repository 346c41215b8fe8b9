package hdf5

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/twl-ldl/twl/internal/human"
)

// Magic is the HDF5 format signature (II.A).
const Magic = "\x89HDF\r\n\x1a\n"

const undef = ^uint64(0) // the undefined address

var le = binary.LittleEndian

// File is an open HDF5 file. Its methods may be called from several
// goroutines at once.
type File struct {
	mu       sync.Mutex // guards the caches headers and gheaps
	r        io.ReaderAt
	size     int64
	name     string
	base     uint64 // base address: file addresses are relative to it
	so, sl   int    // sizes of offsets and lengths
	root     uint64 // address of the root group's object header
	rootSym  *symTab
	headers  map[uint64]*header
	gheaps   map[uint64][][]byte // objects of global heap collections, by index
	maxAlloc int64
	limited  bool         // SetLimit lowered maxAlloc
	budget   atomic.Int64 // bytes the values read may still take
	mem      []byte       // the whole file, when opened with OpenBytes
}

// SetLimit bounds the memory that the values read from f may take
// together, counted as Go holds them (8 bytes a float64, 16 bytes and its
// length a string, the raw bytes of a dataset when they are copied); by
// default it is 1100 times the file's size, a little more than deflate's
// largest ratio. A value that would pass it is refused, before anything is
// allocated for it, with an error wrapping ErrTooLarge. A limit of 0 or
// one above the default leaves the default. Call it before reading.
func (f *File) SetLimit(n int64) {
	if n > 0 && n < f.maxAlloc {
		f.maxAlloc, f.limited = n, true
		f.budget.Store(n)
	}
}

// take counts n bytes the values read are about to take against the
// budget, or returns the error of a value (what, at the byte offset at)
// that would pass it: ErrTooLarge under a limit set by SetLimit,
// ErrCorrupt under the file's own.
func (f *File) take(n int64, what string, at int64) error {
	if n <= 0 {
		return nil
	}
	if left := f.budget.Add(-n); left < 0 {
		f.budget.Add(n)
		if f.limited {
			return f.errf(at, ErrTooLarge, "%s would take %s, more than the %s left of the %s allowed",
				what, human.Bytes(float64(n)), human.Bytes(float64(max(left+n, 0))), human.Bytes(float64(f.maxAlloc)))
		}
		return f.errf(at, ErrCorrupt, "%s would take %s, more than a file of %d bytes can hold", what, human.Bytes(float64(n)), f.size)
	}
	return nil
}

// OpenBytes is Open for a file held in b. Its structures and raw chunks
// are then slices of b, not copies, so b must not change while the File
// or its values are in use.
func OpenBytes(b []byte, name string) (*File, error) {
	return openFile(bytes.NewReader(b), int64(len(b)), name, b)
}

// Open reads the superblock of the HDF5 file in r, of the given size;
// name names it in errors.
func Open(r io.ReaderAt, size int64, name string) (*File, error) {
	return openFile(r, size, name, nil)
}

func openFile(r io.ReaderAt, size int64, name string, mem []byte) (*File, error) {
	f := &File{r: r, size: size, name: name, mem: mem, headers: map[uint64]*header{}, gheaps: map[uint64][][]byte{}}
	f.maxAlloc = 1100*size + 1<<16
	f.budget.Store(f.maxAlloc)
	at := int64(-1)
	for off := int64(0); off+8 <= size; {
		b, err := f.readAt(off, 8)
		if err != nil {
			return nil, err
		}
		if string(b) == Magic {
			at = off
			break
		}
		if off == 0 {
			off = 512
		} else {
			off *= 2
		}
	}
	if at < 0 {
		return nil, f.errf(-1, ErrNotHDF5, "no HDF5 signature at byte 0 or at a power of two from 512")
	}
	if err := f.superblock(at); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) errf(off int64, sentinel error, format string, args ...any) *Error {
	return &Error{File: f.name, Offset: off, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

// past is the error of the structure what at the absolute offset off that
// runs past the end of the file.
func (f *File) past(off int64, what string) *Error {
	return &Error{File: f.name, Offset: off, Err: ErrTruncated, Size: f.size, What: what}
}

// readAt reads n bytes at the absolute offset off.
func (f *File) readAt(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off > f.size || int64(n) > f.size-off {
		return nil, f.errf(off, ErrTruncated, "%d bytes wanted at byte %d of a %d-byte file", n, off, f.size)
	}
	if f.mem != nil {
		return f.mem[off : off+int64(n) : off+int64(n)], nil
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, off); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	return b, nil
}

// read reads the n bytes of the structure what at the file address addr
// and returns them with their absolute offset. Bytes past the end of the
// file are an error of the structure (past).
func (f *File) read(addr uint64, n int, what string) ([]byte, int64, error) {
	if addr == undef {
		return nil, 0, f.errf(-1, ErrCorrupt, "the %s has an undefined address", what)
	}
	if addr > uint64(f.size) || f.base > uint64(f.size)-addr {
		return nil, f.size, f.past(int64(min(addr, 1<<62)), what)
	}
	off := int64(f.base + addr)
	if n < 0 || int64(n) > f.size-off {
		return nil, off, f.past(off, what)
	}
	b, err := f.readAt(off, n)
	return b, off, err
}

// buf is a cursor over structure bytes that records the first overrun.
type buf struct {
	b   []byte
	i   int
	bad bool
	f   *File
}

func (b *buf) take(n int) []byte {
	if b.bad || n < 0 || n > len(b.b)-b.i {
		b.bad = true
		return make([]byte, max(n, 0)&0xffff)
	}
	s := b.b[b.i : b.i+n]
	b.i += n
	return s
}

func (b *buf) u8() uint8   { return b.take(1)[0] }
func (b *buf) u16() uint16 { return le.Uint16(b.take(2)) }
func (b *buf) u32() uint32 { return le.Uint32(b.take(4)) }
func (b *buf) u64() uint64 { return le.Uint64(b.take(8)) }
func (b *buf) skip(n int)  { b.take(n) }

// uint reads a little-endian unsigned integer of n bytes (1 to 8); an
// offset or length of all ones is the undefined address.
func (b *buf) uint(n int) uint64 {
	s := b.take(n)
	if n == 8 {
		return le.Uint64(s) // all ones is undef itself
	}
	var v uint64
	allOnes := true
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(s[i])
		allOnes = allOnes && s[i] == 0xff
	}
	if allOnes && n > 0 {
		return undef
	}
	return v
}

func (b *buf) off() uint64 { return b.uint(b.f.so) }
func (b *buf) len() uint64 { return b.uint(b.f.sl) }

func (f *File) cursor(b []byte) *buf { return &buf{b: b, f: f} }

func validSize(n int) bool { return n == 2 || n == 4 || n == 8 }

// superblock parses the superblock at the absolute offset at (II.A).
func (f *File) superblock(at int64) error {
	b, err := f.readAt(at, int(min(int64(200), f.size-at)))
	if err != nil {
		return err
	}
	c := f.cursor(b)
	c.skip(8)
	version := c.u8()
	switch version {
	case 0, 1:
		c.skip(4) // free-space, root symbol table and shared header versions, reserved
		f.so, f.sl = int(c.u8()), int(c.u8())
		c.skip(1 + 4 + 4) // reserved, group K values, consistency flags
		if version == 1 {
			c.skip(4)
		}
		if !validSize(f.so) || !validSize(f.sl) {
			return f.errf(at, ErrCorrupt, "sizes of offsets %d and lengths %d, want 2, 4 or 8", f.so, f.sl)
		}
		f.base = c.off()
		c.off() // free-space info
		c.off() // end of file
		c.off() // driver info
		// Root group symbol table entry (III.C).
		c.off() // link name offset
		f.root = c.off()
		cache := c.u32()
		c.skip(4)
		scratch := c.take(16)
		if cache == 1 {
			s := f.cursor(scratch)
			f.rootSym = &symTab{btree: s.off(), heap: s.off()}
		}
	case 2, 3:
		f.so, f.sl = int(c.u8()), int(c.u8())
		c.skip(1) // flags
		if !validSize(f.so) || !validSize(f.sl) {
			return f.errf(at, ErrCorrupt, "sizes of offsets %d and lengths %d, want 2, 4 or 8", f.so, f.sl)
		}
		f.base = c.off()
		c.off() // superblock extension
		c.off() // end of file
		f.root = c.off()
	default:
		return f.errf(at, ErrUnsupported, "superblock version %d", version)
	}
	if c.bad {
		return f.errf(at, ErrTruncated, "the superblock is cut short")
	}
	if f.base == undef {
		f.base = 0
	}
	if f.base == 0 && at > 0 {
		f.base = uint64(at)
	}
	return nil
}

// symTab locates a group stored as a symbol table.
type symTab struct{ btree, heap uint64 }

// split turns a path such as "/observation/matrix/data" into its parts.
func split(path string) []string {
	var parts []string
	for _, p := range strings.Split(path, "/") {
		if p != "" && p != "." {
			parts = append(parts, p)
		}
	}
	return parts
}

// lookup returns the object header address of the object at path.
func (f *File) lookup(path string) (uint64, error) {
	addr := f.root
	for _, name := range split(path) {
		links, err := f.links(addr)
		if err != nil {
			return 0, err
		}
		child, ok := links[name]
		if !ok {
			return 0, &Error{File: f.name, Offset: -1, Err: ErrNotFound, Msg: fmt.Sprintf("%q has no member %q (looking up %q)", f.pathTo(path, name), name, path)}
		}
		addr = child
	}
	return addr, nil
}

func (f *File) pathTo(path, name string) string {
	parts := split(path)
	var out []string
	for _, p := range parts {
		if p == name {
			break
		}
		out = append(out, p)
	}
	return "/" + strings.Join(out, "/")
}

// Members returns the names of the members of the group at path, sorted
// as the file stores them.
func (f *File) Members(path string) ([]string, error) {
	addr, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	links, err := f.links(addr)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(links))
	for n := range links {
		names = append(names, n)
	}
	sortStrings(names)
	return names, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// links returns the members of the group whose object header is at addr.
func (f *File) links(addr uint64) (map[string]uint64, error) {
	h, err := f.header(addr)
	if err != nil {
		return nil, err
	}
	out := map[string]uint64{}
	isGroup := false
	for _, m := range h.msgs {
		c := f.cursor(m.data)
		switch m.typ {
		case msgSymbolTable:
			isGroup = true
			st := symTab{btree: c.off(), heap: c.off()}
			if c.bad {
				return nil, f.errf(m.at, ErrCorrupt, "symbol table message cut short")
			}
			if err := f.symbolTable(st, out); err != nil {
				return nil, err
			}
		case msgLinkInfo:
			isGroup = true
			c.skip(1)
			flags := c.u8()
			if flags&1 != 0 {
				c.skip(8)
			}
			if heap := c.off(); heap != undef && !c.bad {
				return nil, f.errf(m.at, ErrUnsupported, "group with links in dense storage (fractal heap)")
			}
		case msgLink:
			isGroup = true
			name, target, err := f.link(m)
			if err != nil {
				return nil, err
			}
			if target != undef {
				out[name] = target
			}
		}
	}
	if !isGroup && addr == f.root && f.rootSym != nil {
		isGroup = true
		if err := f.symbolTable(*f.rootSym, out); err != nil {
			return nil, err
		}
	}
	if !isGroup {
		return nil, f.errf(int64(f.base+addr), ErrNotFound, "the object is not a group")
	}
	return out, nil
}

// link parses a link message (IV.A.2.g); soft and external links have
// the undefined target.
func (f *File) link(m message) (string, uint64, error) {
	c := f.cursor(m.data)
	if v := c.u8(); v != 1 {
		return "", 0, f.errf(m.at, ErrUnsupported, "link message version %d", v)
	}
	flags := c.u8()
	typ := uint8(0)
	if flags&0x08 != 0 {
		typ = c.u8()
	}
	if flags&0x04 != 0 {
		c.skip(8)
	}
	if flags&0x10 != 0 {
		c.skip(1)
	}
	n := int(c.uint(1 << (flags & 3)))
	name := string(c.take(n))
	target := undef
	if typ == 0 {
		target = c.off()
	}
	if c.bad {
		return "", 0, f.errf(m.at, ErrCorrupt, "link message cut short")
	}
	return name, target, nil
}

// symbolTable adds the entries of a symbol-table group to out (III.A.1,
// III.B, III.D).
func (f *File) symbolTable(st symTab, out map[string]uint64) error {
	hb, hoff, err := f.read(st.heap, 8+2*f.sl+f.so, "local heap")
	if err != nil {
		return err
	}
	c := f.cursor(hb)
	if string(c.take(4)) != "HEAP" {
		return f.errf(hoff, ErrCorrupt, "no local heap signature")
	}
	c.skip(4)
	dataSize := c.len()
	c.len()
	dataAddr := c.off()
	if dataSize > uint64(f.size) {
		return f.past(hoff, "local heap")
	}
	heap, _, err := f.read(dataAddr, int(dataSize), "local heap data")
	if err != nil {
		return err
	}
	return f.walkBTree(st.btree, 0, -1, func(child uint64, _ []byte) error {
		nb, noff, err := f.read(child, 8, "symbol table node")
		if err != nil {
			return err
		}
		if string(nb[:4]) != "SNOD" {
			return f.errf(noff, ErrCorrupt, "no symbol table node signature")
		}
		n := int(le.Uint16(nb[6:]))
		entry := 2*f.so + 24
		eb, _, err := f.read(child+8, n*entry, "symbol table node")
		if err != nil {
			return err
		}
		c := f.cursor(eb)
		for range n {
			nameOff := c.off()
			obj := c.off()
			c.skip(24)
			if nameOff >= uint64(len(heap)) {
				return f.errf(noff, ErrCorrupt, "name offset %d beyond the local heap's %d bytes", nameOff, len(heap))
			}
			name := heap[nameOff:]
			if z := strings.IndexByte(string(name), 0); z >= 0 {
				name = name[:z]
			}
			out[string(name)] = obj
		}
		return nil
	})
}

// walkBTree calls fn for every leaf child of the version 1 B-tree at addr
// (III.A.1) with the key that precedes it. typ is 0 for group nodes, 1 for
// chunk nodes; rank is the dataset's rank for chunk nodes. Levels must
// decrease and no node or child may be reached twice, which bounds the
// walk by the size of the file.
func (f *File) walkBTree(addr uint64, typ int, rank int, fn func(child uint64, key []byte) error) error {
	keySize := f.sl
	if typ == 1 {
		keySize = 8 + 8*(rank+1)
	}
	seen := map[uint64]bool{} // nodes and leaf children visited
	var walk func(addr uint64, level int) error
	walk = func(addr uint64, level int) error {
		if seen[addr] {
			return f.errf(int64(min(f.base+addr, uint64(f.size))), ErrCorrupt, "B-tree node reached twice")
		}
		seen[addr] = true
		hb, off, err := f.read(addr, 8+2*f.so, "B-tree node")
		if err != nil {
			return err
		}
		if string(hb[:4]) != "TREE" {
			return f.errf(off, ErrCorrupt, "no B-tree node signature")
		}
		if int(hb[4]) != typ {
			return f.errf(off, ErrCorrupt, "B-tree node of type %d, want %d", hb[4], typ)
		}
		lvl := int(hb[5])
		if level >= 0 && lvl >= level {
			return f.errf(off, ErrCorrupt, "B-tree node at level %d below a node at level %d", lvl, level)
		}
		n := int(le.Uint16(hb[6:]))
		body, _, err := f.read(addr+uint64(8+2*f.so), n*(keySize+f.so)+keySize, "B-tree node")
		if err != nil {
			return err
		}
		c := f.cursor(body)
		for range n {
			key := c.take(keySize)
			child := c.off()
			if lvl > 0 {
				err = walk(child, lvl)
			} else if seen[child] {
				err = f.errf(off, ErrCorrupt, "B-tree leaf child at %#x given twice", child)
			} else {
				seen[child] = true
				err = fn(child, key)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return walk(addr, -1)
}
