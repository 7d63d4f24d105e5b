//! TCPROS: the connection header (a `u32` total length, then `u32`-length-prefixed
//! `key=value` fields) and length-prefixed message frames. Reads are bounded and
//! checked: a malformed header or an oversized frame is an error, and the caller closes
//! that connection.

use std::io::{self, Read, Write};

/// Largest connection header accepted (bytes).
pub const MAX_HEADER: usize = 1 << 20;
/// Largest message accepted (bytes).
pub const MAX_MESSAGE: usize = 64 << 20;

/// What went wrong on a TCPROS connection.
#[derive(Debug, thiserror::Error)]
pub enum TcprosError {
    /// The socket failed or closed.
    #[error("connection: {0}")]
    Io(#[from] io::Error),
    /// A header that is not TCPROS.
    #[error("malformed TCPROS header: {0}")]
    BadHeader(String),
    /// A frame longer than [`MAX_MESSAGE`].
    #[error("message of {0} bytes is larger than the {MAX_MESSAGE}-byte limit")]
    TooLarge(usize),
    /// The peer refused the connection (its header had `error=`).
    #[error("refused by the peer: {0}")]
    Refused(String),
}

/// A connection header: `key=value` fields in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header(pub Vec<(String, String)>);

impl Header {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    /// Add a field.
    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.0.push((key.to_string(), value.to_string()));
        self
    }
    /// The header's bytes, length prefix included.
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for (k, v) in &self.0 {
            let f = format!("{k}={v}");
            body.extend_from_slice(&(f.len() as u32).to_le_bytes());
            body.extend_from_slice(f.as_bytes());
        }
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend(body);
        out
    }
    /// Parse a header body (without its length prefix).
    pub fn decode(mut b: &[u8]) -> Result<Self, TcprosError> {
        let mut fields = Vec::new();
        while !b.is_empty() {
            let Some((len, rest)) = b.split_first_chunk::<4>() else {
                return Err(TcprosError::BadHeader(format!(
                    "{} stray bytes at the end",
                    b.len()
                )));
            };
            let len = u32::from_le_bytes(*len) as usize;
            let Some(field) = rest.get(..len) else {
                return Err(TcprosError::BadHeader(format!(
                    "a field claims {len} bytes, {} are left",
                    rest.len()
                )));
            };
            let f = std::str::from_utf8(field)
                .map_err(|_| TcprosError::BadHeader("a field is not UTF-8".into()))?;
            let (k, v) = f
                .split_once('=')
                .ok_or_else(|| TcprosError::BadHeader(format!("field `{f:.60}` has no `=`")))?;
            fields.push((k.to_string(), v.to_string()));
            b = rest.get(len..).unwrap_or(&[]);
        }
        Ok(Header(fields))
    }
    /// Read a header from a connection.
    pub fn read(r: &mut impl Read) -> Result<Self, TcprosError> {
        let mut len = [0u8; 4];
        r.read_exact(&mut len)?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_HEADER {
            return Err(TcprosError::BadHeader(format!(
                "header length {len} is over the limit"
            )));
        }
        let mut b = Vec::new();
        read_exactly(r, len, &mut b)?;
        Self::decode(&b)
    }
    /// Write the header.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&self.encode())?;
        w.flush()
    }
}

/// A message frame: length prefix and body.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(body.len() + 4);
    f.extend_from_slice(&(body.len() as u32).to_le_bytes());
    f.extend_from_slice(body);
    f
}

/// Read one frame's body into `buf`.
pub fn read_frame(r: &mut impl Read, buf: &mut Vec<u8>) -> Result<(), TcprosError> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_MESSAGE {
        return Err(TcprosError::TooLarge(len));
    }
    Ok(read_exactly(r, len, buf)?)
}

/// Read exactly `len` bytes into `buf` (cleared first). The buffer grows with the bytes
/// that really arrive, not with the length a peer announced: a peer that announces
/// 64 MiB and sends nothing costs no memory.
pub fn read_exactly(r: &mut impl Read, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    let got = r.take(len as u64).read_to_end(buf)?;
    if got == len {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("the connection closed after {got} of {len} bytes"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_first_equals_splits() {
        let h = Header::default()
            .with("callerid", "/a")
            .with("message_definition", "int32 X=1\n");
        let b = h.encode();
        let back = Header::read(&mut &b[..]).unwrap();
        assert_eq!(back, h);
        assert_eq!(back.get("message_definition"), Some("int32 X=1\n"));
    }

    #[test]
    fn malformed_headers_are_errors() {
        for bad in [
            &[1u8, 0, 0][..],
            &[9, 0, 0, 0, b'a'][..],
            &[3, 0, 0, 0, b'a', b'b', b'c'][..],
            &[2, 0, 0, 0, 0xff, b'='][..],
        ] {
            assert!(Header::decode(bad).is_err(), "{bad:?}");
        }
        let huge = (u32::MAX).to_le_bytes();
        assert!(matches!(
            Header::read(&mut &huge[..]),
            Err(TcprosError::BadHeader(_))
        ));
        let mut buf = Vec::new();
        assert!(matches!(
            read_frame(&mut &huge[..], &mut buf),
            Err(TcprosError::TooLarge(_))
        ));
        assert!(matches!(
            read_frame(&mut &[5u8, 0, 0, 0, 1][..], &mut buf),
            Err(TcprosError::Io(_))
        ));
    }
}
