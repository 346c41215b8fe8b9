package hdf5

import (
	"fmt"
)

// Message types (IV.A.2).
const (
	msgDataspace    = 0x01
	msgLinkInfo     = 0x02
	msgDatatype     = 0x03
	msgLink         = 0x06
	msgLayout       = 0x08
	msgFilters      = 0x0b
	msgAttribute    = 0x0c
	msgContinuation = 0x10
	msgSymbolTable  = 0x11
)

type message struct {
	typ  int
	data []byte
	at   int64 // absolute offset of the message data
}

type header struct {
	msgs []message
}

// maxBlocks bounds the continuation blocks of one object header.
const maxBlocks = 1 << 16

// header reads the object header at addr (IV.A.1).
func (f *File) header(addr uint64) (*header, error) {
	f.mu.Lock()
	h, ok := f.headers[addr]
	f.mu.Unlock()
	if ok {
		return h, nil
	}
	b, off, err := f.read(addr, 16, "object header")
	if err != nil {
		return nil, err
	}
	h = &header{}
	type block struct {
		addr, size uint64
	}
	var pending []block
	seen := map[uint64]bool{}
	v2 := string(b[:4]) == "OHDR"
	if v2 {
		c := f.cursor(b)
		c.skip(4)
		if v := c.u8(); v != 2 {
			return nil, f.errf(off, ErrCorrupt, "object header version %d", v)
		}
		flags := c.u8()
		start := 6
		if flags&0x20 != 0 {
			start += 16
		}
		if flags&0x10 != 0 {
			start += 4
		}
		hb, _, err := f.read(addr, start+8, "object header")
		if err != nil {
			return nil, err
		}
		c = f.cursor(hb[start:])
		size := c.uint(1 << (flags & 3))
		start += 1 << (flags & 3)
		// Chunk 0 holds size bytes of messages; its checksum follows.
		pending = append(pending, block{addr + uint64(start), size})
		for len(pending) > 0 {
			blk := pending[0]
			pending = pending[1:]
			if seen[blk.addr] || len(seen) > maxBlocks {
				return nil, f.errf(off, ErrCorrupt, "object header continuation blocks loop")
			}
			seen[blk.addr] = true
			if blk.size > uint64(f.size) {
				return nil, f.past(off, "object header")
			}
			data, boff, err := f.read(blk.addr, int(blk.size), "object header")
			if err != nil {
				return nil, err
			}
			if len(seen) > 1 {
				if len(data) < 8 || string(data[:4]) != "OCHK" {
					return nil, f.errf(boff, ErrCorrupt, "no object header continuation signature")
				}
				data, boff = data[4:len(data)-4], boff+4
			}
			hdr := 4
			if flags&0x04 != 0 {
				hdr = 6
			}
			for i := 0; i+hdr <= len(data); {
				typ := int(data[i])
				n := int(le.Uint16(data[i+1:]))
				i += hdr
				if n > len(data)-i {
					return nil, f.errf(boff+int64(i), ErrCorrupt, "message of %d bytes in %d", n, len(data)-i)
				}
				m := message{typ: typ, data: data[i : i+n], at: boff + int64(i)}
				i += n
				if typ == msgContinuation {
					c := f.cursor(m.data)
					a, l := c.off(), c.len()
					if c.bad {
						return nil, f.errf(m.at, ErrCorrupt, "continuation message cut short")
					}
					pending = append(pending, block{a, l})
					continue
				}
				h.msgs = append(h.msgs, m)
			}
		}
	} else {
		c := f.cursor(b)
		if v := c.u8(); v != 1 {
			return nil, f.errf(off, ErrCorrupt, "object header version %d (no OHDR signature)", v)
		}
		c.skip(1)
		nmsgs := int(c.u16())
		c.skip(4)
		size := uint64(c.u32())
		pending = append(pending, block{addr + 16, size})
		for len(pending) > 0 && len(h.msgs) <= nmsgs {
			blk := pending[0]
			pending = pending[1:]
			if seen[blk.addr] || len(seen) > maxBlocks {
				return nil, f.errf(off, ErrCorrupt, "object header continuation blocks loop")
			}
			seen[blk.addr] = true
			if blk.size > uint64(f.size) {
				return nil, f.past(off, "object header")
			}
			data, boff, err := f.read(blk.addr, int(blk.size), "object header")
			if err != nil {
				return nil, err
			}
			for i := 0; i+8 <= len(data); {
				typ := int(le.Uint16(data[i:]))
				n := int(le.Uint16(data[i+2:]))
				i += 8
				if n > len(data)-i {
					return nil, f.errf(boff+int64(i), ErrCorrupt, "message of %d bytes in %d", n, len(data)-i)
				}
				m := message{typ: typ, data: data[i : i+n], at: boff + int64(i)}
				i += (n + 7) &^ 7
				if typ == msgContinuation {
					c := f.cursor(m.data)
					a, l := c.off(), c.len()
					if c.bad {
						return nil, f.errf(m.at, ErrCorrupt, "continuation message cut short")
					}
					pending = append(pending, block{a, l})
					continue
				}
				h.msgs = append(h.msgs, m)
			}
		}
	}
	f.mu.Lock()
	f.headers[addr] = h
	f.mu.Unlock()
	return h, nil
}

func (h *header) find(typ int) (message, bool) {
	for _, m := range h.msgs {
		if m.typ == typ {
			return m, true
		}
	}
	return message{}, false
}

// Attrs returns the names of the attributes of the object at path.
func (f *File) Attrs(path string) ([]string, error) {
	addr, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	h, err := f.header(addr)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, m := range h.msgs {
		if m.typ == msgAttribute {
			name, _, err := f.attribute(m)
			if err != nil {
				return nil, err
			}
			names = append(names, name)
		}
	}
	return names, nil
}

// Attr returns the value of the attribute name of the object at path.
func (f *File) Attr(path, name string) (*Value, error) {
	addr, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	h, err := f.header(addr)
	if err != nil {
		return nil, err
	}
	for _, m := range h.msgs {
		if m.typ != msgAttribute {
			continue
		}
		n, v, err := f.attribute(m)
		if err != nil {
			return nil, err
		}
		if n == name {
			return v, nil
		}
	}
	return nil, &Error{File: f.name, Offset: -1, Err: ErrNotFound, Msg: fmt.Sprintf("%q has no attribute %q", path, name)}
}

// attribute parses an attribute message (IV.A.2.m).
func (f *File) attribute(m message) (string, *Value, error) {
	c := f.cursor(m.data)
	version := c.u8()
	if version < 1 || version > 3 {
		return "", nil, f.errf(m.at, ErrUnsupported, "attribute message version %d", version)
	}
	c.skip(1)
	nn, tn, sn := int(c.u16()), int(c.u16()), int(c.u16())
	if version == 3 {
		c.skip(1)
	}
	pad := func(n int) int {
		if version == 1 {
			return (n + 7) &^ 7
		}
		return n
	}
	name := c.take(pad(nn))
	if nn > 0 && len(name) >= nn {
		name = name[:nn]
		if name[len(name)-1] == 0 {
			name = name[:len(name)-1]
		}
	}
	tb := c.take(pad(tn))
	sb := c.take(pad(sn))
	if c.bad {
		return "", nil, f.errf(m.at, ErrCorrupt, "attribute message cut short")
	}
	dt, err := f.datatype(tb, m.at)
	if err != nil {
		return "", nil, err
	}
	dims, err := f.dataspace(sb, m.at)
	if err != nil {
		return "", nil, err
	}
	n, err := f.count(dims, dt, m.at)
	if err != nil {
		return "", nil, err
	}
	data := c.take(int(n) * dt.size)
	if c.bad {
		return "", nil, f.errf(m.at, ErrTruncated, "attribute %q holds fewer than %d bytes of data", name, int(n)*dt.size)
	}
	return string(name), &Value{f: f, typ: dt, dims: dims, data: data, at: m.at}, nil
}
