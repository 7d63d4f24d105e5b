//! What the fuzz target does, shared with the test that replays its corpus: frame any
//! bytes, split at a point the input chooses, and run every decoder on every frame.
//! Nothing here may panic.

use crate::command::CommandPacket;
use crate::frame::{Frame, Framer};
use crate::packets::{
    ConfigPac, EncoderPac, GripperPac, Identity, IoPac, LaserPac, Playlist, SimInfo, SimStat, Sip,
    Tcm2Pac,
};

/// Decode `frame` as every kind of packet; re-encode what decodes and check that it
/// decodes to the same value again.
pub fn decode_all(frame: &Frame<'_>, sip: &mut Sip) {
    let as_any = |id: u8| Frame { id, ..*frame };
    if let Ok(c) = CommandPacket::decode(frame) {
        if let Ok(p) = c.encode() {
            assert_eq!(p.id(), frame.id);
        }
    }
    if sip.decode_from(&as_any(0x32)).is_ok() {
        let p = sip.encode().expect("a decoded SIP fits in a packet");
        assert_eq!(p.data(), frame.data, "SIP re-encodes byte for byte");
    }
    let _ = sip.tail();
    if let Ok(c) = ConfigPac::decode(&as_any(0x20)) {
        let _ = c.encode();
    }
    let _ = Identity::decode(&as_any(0x02));
    let _ = GripperPac::decode(&as_any(0xE0));
    let _ = IoPac::decode(&as_any(0xF0)).map(|p| p.encode());
    let _ = EncoderPac::decode(&as_any(0x90));
    let _ = Tcm2Pac::decode(&as_any(0xC0));
    let _ = Playlist::decode(&as_any(0x5B));
    let _ = SimStat::decode(&as_any(0x62));
    let _ = SimInfo::decode(&as_any(0x63)).map(|p| p.encode());
    for id in [0x60, 0x61] {
        if let Ok(p) = LaserPac::decode(&as_any(id)) {
            assert_eq!(p.readings().count(), p.len());
        }
    }
}

/// The fuzz target's body.
pub fn fuzz_stream(data: &[u8]) {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let cut = usize::from(split).min(rest.len());
    let (a, b) = rest.split_at(cut);
    let mut framer = Framer::new();
    let mut sip = Sip::default();
    framer.feed(a, |f| decode_all(&f, &mut sip));
    framer.feed(b, |f| decode_all(&f, &mut sip));
    while framer.pending() > 0 {
        framer.expire();
        while let Some(f) = framer.next_frame() {
            decode_all(&f, &mut sip);
        }
    }
    // every frame's own data, decoded directly
    let frame = Frame {
        id: 0,
        data: rest,
        bytes: rest,
    };
    decode_all(&frame, &mut sip);
}
