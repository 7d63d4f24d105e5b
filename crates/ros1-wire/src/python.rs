//! Numbers as Python prints them, so that Skipper's output reads as the output of
//! Python-based ROS tools does (`rostopic echo`, `ros2 topic echo`).

/// A float as Python's `repr()` and `str()` print it: the shortest digits that read back, in
/// scientific form when the exponent is below -4 or at least 16.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's {:e} is the shortest round-trip form: d.ddde[-]x
    let e = format!("{x:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if neg { "-" } else { "" };
    if !(-4..16).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{frac}e{esign}{:02}", exp.abs());
    }
    let n = digits.len() as i32;
    if exp < 0 {
        let zeros = "0".repeat((-exp - 1) as usize);
        format!("{sign}0.{zeros}{digits}")
    } else if exp + 1 >= n {
        let zeros = "0".repeat((exp + 1 - n) as usize);
        format!("{sign}{digits}{zeros}.0")
    } else {
        let (a, b) = digits.split_at((exp + 1) as usize);
        format!("{sign}{a}.{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_does() {
        for (x, want) in [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (123456789012345.0, "123456789012345.0"),
            (1.5e16, "1.5e+16"),
            (0.30000000000000004, "0.30000000000000004"),
            (f64::from(0.3f32), "0.30000001192092896"),
            (f64::NAN, "nan"),
            (-0.0, "-0.0"),
            (2.2e-308, "2.2e-308"),
        ] {
            assert_eq!(float_repr(x), want);
        }
    }
}
