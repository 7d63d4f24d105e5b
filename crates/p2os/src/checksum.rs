//! The P2OS packet checksum.
//!
//! Computed over the payload (the command number or packet type and the data, not the
//! header or the count): the bytes two at a time as 16-bit words, first byte high, added
//! with wrap-around; an odd last byte is XORed into the low byte of the sum. It travels
//! high byte first.

/// The checksum of a payload.
pub fn checksum(payload: &[u8]) -> u16 {
    // 16-bit words added in a wide accumulator: the low 16 bits are the wrapped sum
    let mut wide: u32 = 0;
    let mut eights = payload.chunks_exact(8);
    for c in &mut eights {
        if let [a, b, c, d, e, f, g, h] = *c {
            wide = wide
                .wrapping_add(u32::from(u16::from_be_bytes([a, b])))
                .wrapping_add(u32::from(u16::from_be_bytes([c, d])))
                .wrapping_add(u32::from(u16::from_be_bytes([e, f])))
                .wrapping_add(u32::from(u16::from_be_bytes([g, h])));
        }
    }
    let mut pairs = eights.remainder().chunks_exact(2);
    for p in &mut pairs {
        if let [hi, lo] = *p {
            wide = wide.wrapping_add(u32::from(u16::from_be_bytes([hi, lo])));
        }
    }
    let mut sum = wide as u16;
    if let [last] = pairs.remainder() {
        sum ^= u16::from(*last);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::checksum;

    #[test]
    fn worked_examples_from_aria() {
        assert_eq!(checksum(&[0x00]), 0x0000); // SYNC0
        assert_eq!(checksum(&[0x01]), 0x0001); // SYNC1
        assert_eq!(checksum(&[0x01, 0x3B, 0x01, 0x00]), 0x023B); // OPEN 1
        assert_eq!(checksum(&[0x0B, 0x3B, 0xFA, 0x00]), 0x053B); // VEL 250
        assert_eq!(checksum(&[0x05, 0x1B, 0x2C, 0x01]), 0x311C); // SETA -300
        assert_eq!(checksum(&[]), 0);
    }

    #[test]
    fn odd_byte_is_xored_into_the_low_byte() {
        assert_eq!(checksum(&[0x12, 0x34, 0x56]), 0x1234 ^ 0x0056);
        assert_eq!(checksum(&[0xFF, 0xFF, 0x00, 0x02]), 0x0001);
        // the wide accumulator agrees with a plain 16-bit wrapping sum
        let data: Vec<u8> = (0..=250u8).map(|b| b.wrapping_mul(97)).collect();
        for n in 0..data.len() {
            let mut plain = 0u16;
            for p in data[..n].chunks(2) {
                plain = match p {
                    [h, l] => plain.wrapping_add(u16::from_be_bytes([*h, *l])),
                    [l] => plain ^ u16::from(*l),
                    _ => plain,
                };
            }
            assert_eq!(checksum(&data[..n]), plain, "length {n}");
        }
    }
}
