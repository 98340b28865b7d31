"""Build drgn Programs from synthetic types and memory, laid out as old kernels did.

No kernel package boots the page_cgroup generations here (2.6.25-rc5-mm1's radix tree,
2.6.27-3.18's lookup_page_cgroup() arrays, 3.19-5.10's page->mem_cgroup), so the tests lay
those structures out in a bytearray, describe them with drgn types, and check the walkers'
answers against what they wrote.
"""

import struct

from drgn import (Architecture, Object, Platform, PlatformFlags, Program, TypeEnumerator,
                  TypeKind, TypeMember)

BASE = 0xffff888000000000


class Kernel:
    """A synthetic x86_64 kernel: memory, types by name, objects by name."""

    def __init__(self, size=8 << 20):
        self.prog = Program(Platform(Architecture.X86_64,
                                     PlatformFlags.IS_64_BIT | PlatformFlags.IS_LITTLE_ENDIAN))
        self.mem = bytearray(size)
        self.next = BASE + 4096
        self.types = {}
        self.objects = {}
        self.prog.add_memory_segment(BASE, size, self._read)
        self.prog.add_type_finder(self._find_type)
        self.prog.add_object_finder(self._find_object)
        p = self.prog
        self.ulong = p.int_type("unsigned long", 8, False)
        self.uint = p.int_type("unsigned int", 4, False)
        self.int = p.int_type("int", 4, True)
        self.uchar = p.int_type("unsigned char", 1, False)
        self.void_p = p.pointer_type(p.void_type())
        self.list_head = self.struct("list_head", 16, [
            ("next", None, 0), ("prev", None, 8)])
        # list_head members point to list_head: patch after creation
        lp = p.pointer_type(self.list_head)
        self.list_head = self.struct("list_head", 16, [("next", lp, 0), ("prev", lp, 8)])
        self.const("PAGE_SIZE", self.ulong, 4096)

    # -- memory
    def _read(self, address, count, offset, physical):
        return bytes(self.mem[offset:offset + count])

    def alloc(self, size, align=64):
        self.next = (self.next + align - 1) & ~(align - 1)
        a = self.next
        self.next += size
        if self.next - BASE > len(self.mem):
            raise MemoryError("synthetic memory full")
        return a

    def w64(self, addr, v):
        struct.pack_into("<Q", self.mem, addr - BASE, v & (2**64 - 1))

    def w32(self, addr, v):
        struct.pack_into("<I", self.mem, addr - BASE, v & (2**32 - 1))

    # -- types and objects
    def _find_type(self, kind, name, filename):
        kinds = kind if isinstance(kind, (set, frozenset)) else {kind}
        for k in kinds:
            t = self.types.get((k, name))
            if t is not None:
                return t
        return None

    def _find_object(self, prog, name, flags, filename):
        return self.objects.get(name)

    def struct(self, name, size, members, kind="struct"):
        ms = [TypeMember(t if t is not None else self.void_p, n, off * 8)
              for n, t, off in members]
        if kind == "union":
            t = self.prog.union_type(name, size, ms)
            self.types[(TypeKind.UNION, name)] = t
        else:
            t = self.prog.struct_type(name, size, ms)
            self.types[(TypeKind.STRUCT, name)] = t
        return t

    def ptr(self, t):
        return self.prog.pointer_type(t)

    def array(self, t, n):
        return self.prog.array_type(t, n)

    def enum(self, name, values):
        t = self.prog.enum_type(name, self.uint,
                                [TypeEnumerator(k, v) for k, v in values.items()])
        self.types[(TypeKind.ENUM, name)] = t
        for k in values:
            self.objects[k] = Object(self.prog, t, value=values[k])
        return t

    def const(self, name, t, value):
        self.objects[name] = Object(self.prog, t, value=value)

    def var(self, name, t, address):
        self.objects[name] = Object(self.prog, t, address=address)


def page_flags(k, extra=None):
    """enum pageflags with the bits the scripts use (6.1 numbering)."""
    v = {"PG_locked": 0, "PG_referenced": 1, "PG_uptodate": 2, "PG_dirty": 3, "PG_lru": 4,
         "PG_active": 5, "PG_workingset": 6, "PG_slab": 9, "PG_head": 16,
         "PG_swapbacked": 19, "PG_unevictable": 20}
    v.update(extra or {})
    return k.enum("pageflags", v)


def nodes(k, pglist_members, ranges, extra=None):
    """pglist_data objects for [(start_pfn, spanned)] and node_data[] pointing to them."""
    pg = k.struct("pglist_data", 64, [("node_start_pfn", k.ulong, 0),
                                      ("node_spanned_pages", k.ulong, 8)] + pglist_members)
    arr = k.alloc(8 * 4)
    addrs = []
    for i, (start, span) in enumerate(ranges):
        a = k.alloc(64)
        k.w64(a, start)
        k.w64(a + 8, span)
        for off, v in (extra or {}).get(i, {}).items():
            k.w64(a + off, v)
        k.w64(arr + 8 * i, a)
        addrs.append(a)
    k.var("node_data", k.array(k.ptr(pg), 4), arr)
    return pg, addrs
