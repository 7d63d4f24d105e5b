//! Little-endian field readers and writers for packet data.
//!
//! [`Reader`] walks a packet's data and answers `None` past the end, so decoders never
//! index out of bounds; [`Writer`] fills a fixed buffer and remembers an overflow
//! instead of panicking.

/// Reads fields from packet data.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Start at the beginning of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }
    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }
    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }
    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let b = self.data.get(self.pos..end)?;
        self.pos = end;
        Some(b)
    }
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let b = self.bytes(N)?;
        b.try_into().ok()
    }
    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        let b = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }
    /// A signed byte.
    pub fn i8(&mut self) -> Option<i8> {
        self.u8().map(|b| b as i8)
    }
    /// A little-endian 16-bit unsigned integer.
    pub fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }
    /// A little-endian 16-bit signed integer.
    pub fn i16(&mut self) -> Option<i16> {
        self.array().map(i16::from_le_bytes)
    }
    /// A little-endian 32-bit unsigned integer.
    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }
    /// A little-endian 32-bit signed integer.
    pub fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }
    /// A NUL-terminated string (without its NUL); `None` if no NUL is left.
    pub fn cstr(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest();
        let n = rest.iter().position(|&b| b == 0)?;
        let s = rest.get(..n)?;
        self.pos += n + 1;
        Some(s)
    }
}

/// Writes fields into a fixed buffer.
#[derive(Debug)]
pub struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
    wanted: usize,
    overflow: bool,
}

impl<'a> Writer<'a> {
    /// Write into `buf` from its start.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Self {
            buf,
            len: 0,
            wanted: 0,
            overflow: false,
        }
    }
    /// Bytes written.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Nothing written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Bytes asked to be written, including any that did not fit.
    pub fn wanted(&self) -> usize {
        self.wanted
    }
    /// Did something not fit?
    pub fn overflowed(&self) -> bool {
        self.overflow
    }
    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.wanted += b.len();
        let end = self.len + b.len();
        if self.overflow {
            return;
        }
        match self.buf.get_mut(self.len..end) {
            Some(dst) => {
                dst.copy_from_slice(b);
                self.len = end;
            }
            None => self.overflow = true,
        }
    }
    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
    /// A signed byte.
    pub fn i8(&mut self, v: i8) {
        self.bytes(&[v as u8]);
    }
    /// Little-endian u16.
    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    /// Little-endian i16.
    pub fn i16(&mut self, v: i16) {
        self.bytes(&v.to_le_bytes());
    }
    /// Little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    /// Little-endian i32.
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }
    /// A string and its NUL terminator.
    pub fn cstr(&mut self, s: &[u8]) {
        self.bytes(s);
        self.u8(0);
    }
}
