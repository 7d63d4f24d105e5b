//! A small JSON writer for the run log's per-cycle messages: the caller writes keys as
//! pre-encoded byte strings, numbers go straight into a reused buffer, and floats are
//! rounded to a fixed number of decimals (what the sensors resolve, see
//! [`decimals_of`]). Nothing here allocates once the buffer has grown to its size.

use skipper_core::{Dimension, Unit, Value};
use std::time::Duration;

/// Powers of ten up to the finest resolution the log uses.
const POW10: [u64; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// The same as floats.
const POW10F: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// Above this many units of the last decimal a float is written in full (ryu) instead.
const FIXED_LIMIT: f64 = 9.0e15;

/// `v` rounded to `decimals` places (at most 9): `66.099`, `-0.5`, `12.0`; `null` if it
/// is not finite. Trailing zeros go, one decimal stays.
pub fn fixed(out: &mut Vec<u8>, v: f64, decimals: u8) {
    let d = usize::from(decimals.min(9));
    let scaled = v * POW10F[d];
    if !scaled.is_finite() || scaled.abs() >= FIXED_LIMIT {
        return full(out, v);
    }
    quantum_at(out, round(scaled), decimals);
}

/// A float given as its quantum `n` (see [`quantum`]) at `decimals` places: what
/// [`fixed`] writes for it.
pub fn quantum_at(out: &mut Vec<u8>, n: i64, decimals: u8) {
    let d = usize::from(decimals.min(9));
    let m = n.unsigned_abs();
    let unit = POW10[d];
    decimal(out, n < 0, m / unit, m % unit, d);
}

/// `-`, `int`, `.` and the `digits` decimals of `frac` (< 10^digits), trailing zeros
/// dropped (one digit stays), written at once.
fn decimal(out: &mut Vec<u8>, negative: bool, int: u64, frac: u64, digits: usize) {
    let mut b = Backwards::new();
    if digits == 0 || frac == 0 {
        b.byte(b'0');
    } else {
        // frac is not 0, so at least one digit stays
        let (mut f, mut n) = (frac, digits);
        while n >= 4 && f % 10_000 == 0 {
            f /= 10_000;
            n -= 4;
        }
        while f % 10 == 0 {
            f /= 10;
            n -= 1;
        }
        b.padded(f, n);
    }
    b.byte(b'.');
    b.digits(int);
    if negative {
        b.byte(b'-');
    }
    out.extend_from_slice(b.written());
}

/// `"00"`, `"01"`, ... `"99"`: two digits at a time.
const PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// A number written from its last character to its first into a stack buffer (room for
/// a sign, 20 integer digits, a point and 9 decimals), then copied out in one go.
struct Backwards {
    buf: [u8; 40],
    at: usize,
}

impl Backwards {
    fn new() -> Self {
        Self {
            buf: [0; 40],
            at: 40,
        }
    }

    fn byte(&mut self, c: u8) {
        self.at -= 1;
        self.buf[self.at] = c;
    }

    fn pair(&mut self, v: u64) {
        let p = (v % 100) as usize * 2;
        self.at -= 2;
        self.buf[self.at..self.at + 2].copy_from_slice(&PAIRS[p..p + 2]);
    }

    /// The digits of `v` (`0` for 0).
    fn digits(&mut self, mut v: u64) {
        while v >= 100 {
            self.pair(v);
            v /= 100;
        }
        if v >= 10 {
            self.pair(v);
        } else {
            self.byte(b'0' + v as u8);
        }
    }

    /// The last `n` digits of `v`, with leading zeros.
    fn padded(&mut self, mut v: u64, mut n: usize) {
        while n >= 2 {
            self.pair(v);
            v /= 100;
            n -= 2;
        }
        if n == 1 {
            self.byte(b'0' + (v % 10) as u8);
        }
    }

    fn written(&self) -> &[u8] {
        &self.buf[self.at..]
    }
}

/// `v` in full (shortest round-trip form), `null` if it is not finite.
pub fn full(out: &mut Vec<u8>, v: f64) {
    // writing to a Vec cannot fail
    let _ = serde_json::to_writer(&mut *out, &v);
}

/// An unsigned integer.
pub fn unsigned(out: &mut Vec<u8>, v: u64) {
    let mut b = Backwards::new();
    b.digits(v);
    out.extend_from_slice(b.written());
}

/// A signed integer.
pub fn signed(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    unsigned(out, v.unsigned_abs());
}

/// A time in seconds, exact to the nanosecond: `199.8`, `0.0`.
pub fn duration(out: &mut Vec<u8>, t: Duration) {
    decimal(out, false, t.as_secs(), u64::from(t.subsec_nanos()), 9);
}

/// A JSON string, escaped.
pub fn string(out: &mut Vec<u8>, s: &str) {
    let _ = serde_json::to_writer(&mut *out, s);
}

/// A signal's value: floats rounded to `decimals` (in full without), positions to 1e-7
/// degrees (about 1 cm).
pub fn value(out: &mut Vec<u8>, v: &Value, decimals: Option<u8>) {
    match v {
        Value::None => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Int(i) => signed(out, *i),
        Value::Float(f) => match decimals {
            Some(d) => fixed(out, *f, d),
            None => full(out, *f),
        },
        Value::Text(s) => string(out, s),
        Value::Position { lat, lon } => {
            out.extend_from_slice(b"{\"lat\":");
            fixed(out, *lat, GEO_DECIMALS);
            out.extend_from_slice(b",\"lon\":");
            fixed(out, *lon, GEO_DECIMALS);
            out.push(b'}');
        }
    }
}

/// Geographic coordinates in degrees: 1e-7 degrees is about 1 cm.
pub const GEO_DECIMALS: u8 = 7;

/// The decimals a float signal in `unit` is logged with: what a robot's sensors resolve
/// (mm, mm/s, 1e-4 rad, 1e-4 rad/s, 1 ms, 1e-4 degC and PSU, 1 mV; degrees to 1e-7, as
/// geographic coordinates need). `None` (in full) for signals without a unit or with a
/// dimensionless one.
pub fn decimals_of(unit: Option<&Unit>) -> Option<u8> {
    let u = unit?;
    // `base` decimals of the dimension's canonical unit, in this unit
    let metric = |base: u8| {
        let shift = u.scale.log10().round() as i32;
        u8::try_from((i32::from(base) + shift).clamp(0, 9)).ok()
    };
    match u.dimension {
        Dimension::Length | Dimension::Speed | Dimension::Time | Dimension::Voltage => metric(3),
        // angles in degrees are geographic coordinates more often than not
        Dimension::Angle if u.name == "DEGREE" => Some(GEO_DECIMALS),
        Dimension::Angle | Dimension::AngularRate => metric(4),
        Dimension::Temperature | Dimension::Salinity => Some(4),
        Dimension::Position => Some(GEO_DECIMALS),
        Dimension::Dimensionless | Dimension::Count | Dimension::Bool => None,
    }
}

/// The quantum a float is logged at: equal quanta are equal in the log. `None` for
/// values written in full or not finite.
#[inline]
pub fn quantum(v: f64, decimals: u8) -> Option<i64> {
    let scaled = v * POW10F[usize::from(decimals.min(9))];
    // false for NaN and the infinities too
    (scaled.abs() < FIXED_LIMIT).then(|| round(scaled))
}

/// `x.round() as i64` (halves away from zero) for `|x| < FIXED_LIMIT`, without the libm
/// call `f64::round` is on x86-64 without SSE4.1: the cast truncates, and `x - trunc(x)` is
/// exact.
#[inline]
fn round(x: f64) -> i64 {
    let t = x as i64;
    let frac = x - t as f64;
    if frac >= 0.5 {
        t + 1
    } else if frac <= -0.5 {
        t - 1
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skipper_core::units;

    fn text(f: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        f(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn floats_are_rounded_and_trimmed() {
        assert_eq!(text(|o| fixed(o, 66.099_438_071, 3)), "66.099");
        assert_eq!(
            text(|o| fixed(o, -121.902_020_873_048_91, 7)),
            "-121.9020209"
        );
        assert_eq!(text(|o| fixed(o, 12.0, 3)), "12.0");
        assert_eq!(text(|o| fixed(o, 0.0496, 2)), "0.05");
        assert_eq!(text(|o| fixed(o, -0.0004, 3)), "0.0");
        assert_eq!(text(|o| fixed(o, -1.5782883, 4)), "-1.5783");
        assert_eq!(text(|o| fixed(o, 7.0, 0)), "7.0");
        assert_eq!(text(|o| fixed(o, f64::NAN, 3)), "null");
        assert_eq!(text(|o| fixed(o, 1e300, 3)), "1e+300");
    }

    #[test]
    fn what_the_writer_writes_is_json_with_the_rounded_value() {
        for v in [0.1, -2.5e-3, 123_456.789_012, 1.0e12, -9.999_5] {
            let s = text(|o| fixed(o, v, 3));
            let back: f64 = serde_json::from_str(&s).unwrap();
            assert!((back - v).abs() <= 5e-4 + 1e-12, "{v} -> {s}");
        }
    }

    /// What the writer wrote before it wrote two digits at a time.
    fn reference(n: i64, d: usize) -> String {
        let unit = 10i128.pow(d as u32);
        let m = i128::from(n).abs();
        let mut frac = format!("{:0d$}", m % unit, d = d);
        while frac.len() > 1 && frac.ends_with('0') {
            frac.pop();
        }
        if frac.is_empty() {
            frac.push('0');
        }
        let sign = if n < 0 { "-" } else { "" };
        format!("{sign}{}.{frac}", m / unit)
    }

    #[test]
    fn numbers_are_written_digit_for_digit() {
        let mut n: i64 = 1;
        let mut samples = vec![0, 1, -1, 9, 10, 99, 100, 101, 999_999_999, 1_000_000_000];
        for _ in 0..2_000 {
            n = n.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            samples.push(n >> (n & 63).max(1));
            samples.push((n >> 40) * 10_000);
        }
        samples.push(i64::MIN + 1);
        samples.push(i64::MAX);
        for &v in &samples {
            for d in 0..=9u8 {
                let got = text(|o| quantum_at(o, v, d));
                assert_eq!(got, reference(v, usize::from(d)), "{v} at {d}");
            }
            let u = v.unsigned_abs();
            assert_eq!(text(|o| unsigned(o, u)), u.to_string());
        }
        assert_eq!(text(|o| unsigned(o, u64::MAX)), u64::MAX.to_string());
    }

    #[test]
    fn rounding_is_f64_round() {
        let mut x = 0.123_456_789_f64;
        let mut samples = vec![
            0.5,
            -0.5,
            1.5,
            -2.5,
            0.499_999_999_999_999_94,
            -0.499_999_999_999_999_94,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_497.0,
            8.9e15,
            0.0,
            -0.0,
        ];
        for _ in 0..10_000 {
            x = (x * 7.31 + 0.77).fract() * 2e6 - 1e6;
            samples.push(x);
            samples.push(x.trunc() + 0.5);
        }
        for v in samples {
            assert_eq!(round(v), v.round() as i64, "{v}");
        }
    }

    #[test]
    fn times_are_exact_and_integers_plain() {
        assert_eq!(
            text(|o| duration(o, Duration::from_millis(199_800))),
            "199.8"
        );
        assert_eq!(text(|o| duration(o, Duration::ZERO)), "0.0");
        assert_eq!(text(|o| duration(o, Duration::new(3, 5))), "3.000000005");
        assert_eq!(text(|o| signed(o, i64::MIN)), i64::MIN.to_string());
        assert_eq!(text(|o| unsigned(o, 0)), "0");
        assert_eq!(text(|o| string(o, "a\"b\n")), r#""a\"b\n""#);
    }

    #[test]
    fn each_unit_has_the_resolution_of_its_sensors() {
        assert_eq!(decimals_of(Some(&units::METER)), Some(3));
        assert_eq!(decimals_of(Some(&units::KILOMETER)), Some(6));
        assert_eq!(decimals_of(Some(&units::MILLIMETER)), Some(0));
        assert_eq!(decimals_of(Some(&units::RADIAN)), Some(4));
        assert_eq!(decimals_of(Some(&units::DEGREE)), Some(7));
        assert_eq!(decimals_of(Some(&units::SECOND)), Some(3));
        assert_eq!(decimals_of(Some(&units::CELSIUS)), Some(4));
        assert_eq!(decimals_of(Some(&units::NONE)), None);
        assert_eq!(decimals_of(None), None);
        let pos = Value::Position {
            lat: 36.800_047_868_583_306,
            lon: -121.9,
        };
        assert_eq!(
            text(|o| value(o, &pos, None)),
            r#"{"lat":36.8000479,"lon":-121.9}"#
        );
    }
}
