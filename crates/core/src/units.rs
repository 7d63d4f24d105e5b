//! Units with dimensions, and conversions between them.
//!
//! Every unit has a [`Dimension`] and a linear map to the dimension's canonical unit
//! (`canonical = value * scale + offset`): metres, radians, seconds, metres per second,
//! radians per second, degrees Celsius, PSU, volts. Conversions between units of
//! different dimensions are errors. Names are matched case-insensitively, so the
//! Tethys spellings (`Units.METER`) and the later lower-case ones (`meter`) both work.

use serde::{Serialize, Serializer};
use std::f64::consts::PI;
use std::fmt;

/// The physical dimension of a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// A plain number.
    Dimensionless,
    /// Length (canonical: metre).
    Length,
    /// Plane angle (canonical: radian).
    Angle,
    /// Time (canonical: second).
    Time,
    /// Speed (canonical: metre per second).
    Speed,
    /// Angular rate (canonical: radian per second).
    AngularRate,
    /// Temperature (canonical: degree Celsius).
    Temperature,
    /// Salinity (canonical: practical salinity unit).
    Salinity,
    /// A count of things.
    Count,
    /// A truth value.
    Bool,
    /// A geographic position (latitude and longitude in degrees).
    Position,
    /// Electric potential (canonical: volt).
    Voltage,
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Dimension::Dimensionless => "dimensionless",
            Dimension::Length => "length",
            Dimension::Angle => "angle",
            Dimension::Time => "time",
            Dimension::Speed => "speed",
            Dimension::AngularRate => "angular rate",
            Dimension::Temperature => "temperature",
            Dimension::Salinity => "salinity",
            Dimension::Count => "count",
            Dimension::Bool => "bool",
            Dimension::Position => "position",
            Dimension::Voltage => "voltage",
        };
        f.write_str(s)
    }
}

/// A unit: a name, a symbol, a dimension and the map to the canonical unit.
#[derive(Debug, PartialEq)]
pub struct Unit {
    /// Upper-case name as the Tethys `Units` table spells it (`METER_PER_SECOND`).
    pub name: &'static str,
    /// Short symbol (`m/s`).
    pub symbol: &'static str,
    /// Other accepted spellings.
    pub aliases: &'static [&'static str],
    /// Dimension.
    pub dimension: Dimension,
    /// Multiply by this to get the canonical unit ...
    pub scale: f64,
    /// ... then add this.
    pub offset: f64,
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.symbol)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

macro_rules! units {
    ($($id:ident = ($name:literal, $sym:literal, [$($alias:literal),*], $dim:ident, $scale:expr, $offset:expr);)*) => {
        $(
            #[doc = concat!("The unit ", $name, " (", $sym, ").")]
            pub const $id: Unit = Unit { name: $name, symbol: $sym, aliases: &[$($alias),*],
                dimension: Dimension::$dim, scale: $scale, offset: $offset };
        )*
        /// Every unit Skipper knows.
        pub static ALL: &[&Unit] = &[$(&$id),*];
    };
}

units! {
    NONE = ("NONE", "", ["dimensionless", "unitless"], Dimensionless, 1.0, 0.0);
    PERCENT = ("PERCENT", "%", [], Dimensionless, 0.01, 0.0);
    METER = ("METER", "m", ["meters", "metre", "metres"], Length, 1.0, 0.0);
    KILOMETER = ("KILOMETER", "km", ["kilometers", "kilometre"], Length, 1000.0, 0.0);
    CENTIMETER = ("CENTIMETER", "cm", ["centimeters"], Length, 0.01, 0.0);
    MILLIMETER = ("MILLIMETER", "mm", ["millimeters"], Length, 0.001, 0.0);
    FOOT = ("FOOT", "ft", ["feet"], Length, 0.3048, 0.0);
    NAUTICAL_MILE = ("NAUTICAL_MILE", "nmi", [], Length, 1852.0, 0.0);
    RADIAN = ("RADIAN", "rad", ["radians"], Angle, 1.0, 0.0);
    DEGREE = ("DEGREE", "deg", ["degrees", "arc_degree"], Angle, PI / 180.0, 0.0);
    MILLISECOND = ("MILLISECOND", "ms", ["milliseconds"], Time, 0.001, 0.0);
    SECOND = ("SECOND", "s", ["seconds", "sec"], Time, 1.0, 0.0);
    MINUTE = ("MINUTE", "min", ["minutes"], Time, 60.0, 0.0);
    HOUR = ("HOUR", "h", ["hours"], Time, 3600.0, 0.0);
    DAY = ("DAY", "d", ["days"], Time, 86400.0, 0.0);
    METER_PER_SECOND = ("METER_PER_SECOND", "m/s", ["meters_per_second"], Speed, 1.0, 0.0);
    MILLIMETER_PER_SECOND = ("MILLIMETER_PER_SECOND", "mm/s", [], Speed, 0.001, 0.0);
    KILOMETER_PER_HOUR = ("KILOMETER_PER_HOUR", "km/h", [], Speed, 1.0 / 3.6, 0.0);
    KNOT = ("KNOT", "kn", ["knots"], Speed, 1852.0 / 3600.0, 0.0);
    RADIAN_PER_SECOND = ("RADIAN_PER_SECOND", "rad/s", [], AngularRate, 1.0, 0.0);
    DEGREE_PER_SECOND = ("DEGREE_PER_SECOND", "deg/s", [], AngularRate, PI / 180.0, 0.0);
    CELSIUS = ("CELSIUS", "degC", ["degree_celsius", "degc"], Temperature, 1.0, 0.0);
    KELVIN = ("KELVIN", "K", [], Temperature, 1.0, -273.15);
    FAHRENHEIT = ("FAHRENHEIT", "degF", [], Temperature, 5.0 / 9.0, -160.0 / 9.0);
    PSU = ("PSU", "PSU", ["practical_salinity_unit"], Salinity, 1.0, 0.0);
    COUNT = ("COUNT", "count", ["enum"], Count, 1.0, 0.0);
    BOOL = ("BOOL", "bool", ["boolean"], Bool, 1.0, 0.0);
    VOLT = ("VOLT", "V", ["volts"], Voltage, 1.0, 0.0);
    LATITUDE_LONGITUDE = ("LATITUDE_LONGITUDE", "deg,deg", ["position"], Position, 1.0, 0.0);
}

impl Unit {
    /// Find a unit by name, symbol or alias, ignoring case (`METER`, `meter`, `m`).
    pub fn by_name(name: &str) -> Option<&'static Unit> {
        ALL.iter().copied().find(|u| {
            u.name.eq_ignore_ascii_case(name)
                || u.symbol == name
                || u.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }
    /// The canonical unit of a dimension.
    pub fn canonical(d: Dimension) -> &'static Unit {
        match d {
            Dimension::Dimensionless => &NONE,
            Dimension::Length => &METER,
            Dimension::Angle => &RADIAN,
            Dimension::Time => &SECOND,
            Dimension::Speed => &METER_PER_SECOND,
            Dimension::AngularRate => &RADIAN_PER_SECOND,
            Dimension::Temperature => &CELSIUS,
            Dimension::Salinity => &PSU,
            Dimension::Count => &COUNT,
            Dimension::Bool => &BOOL,
            Dimension::Position => &LATITUDE_LONGITUDE,
            Dimension::Voltage => &VOLT,
        }
    }
    /// A value in this unit, in the dimension's canonical unit.
    pub fn to_canonical(&self, v: f64) -> f64 {
        v * self.scale + self.offset
    }
    /// A value in the dimension's canonical unit, in this unit.
    pub fn from_canonical(&self, v: f64) -> f64 {
        (v - self.offset) / self.scale
    }
}

/// Converting between units of different dimensions.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot convert {from} ({from_dim}) to {to} ({to_dim}): the dimensions differ")]
pub struct UnitError {
    /// Source unit name.
    pub from: &'static str,
    /// Source dimension.
    pub from_dim: Dimension,
    /// Target unit name.
    pub to: &'static str,
    /// Target dimension.
    pub to_dim: Dimension,
}

/// Convert `v` from one unit to another of the same dimension.
pub fn convert(v: f64, from: &'static Unit, to: &'static Unit) -> Result<f64, UnitError> {
    if from.dimension != to.dimension {
        return Err(UnitError {
            from: from.name,
            from_dim: from.dimension,
            to: to.name,
            to_dim: to.dimension,
        });
    }
    Ok(to.from_canonical(from.to_canonical(v)))
}

/// A number with a unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Quantity {
    /// The number, in `unit`.
    pub value: f64,
    /// Its unit.
    pub unit: &'static Unit,
}

impl Quantity {
    /// A quantity.
    pub fn new(value: f64, unit: &'static Unit) -> Self {
        Self { value, unit }
    }
    /// Its dimension.
    pub fn dimension(&self) -> Dimension {
        self.unit.dimension
    }
    /// The value in the dimension's canonical unit.
    pub fn canonical(&self) -> f64 {
        self.unit.to_canonical(self.value)
    }
    /// The value in another unit of the same dimension.
    pub fn to(&self, unit: &'static Unit) -> Result<f64, UnitError> {
        convert(self.value, self.unit, unit)
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unit.symbol.is_empty() {
            write!(f, "{}", self.value)
        } else {
            write!(f, "{} {}", self.value, self.unit.symbol)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * (1.0 + b.abs())
    }

    #[test]
    fn converts_within_a_dimension() {
        assert!(close(convert(1.0, &KILOMETER, &METER).unwrap(), 1000.0));
        assert!(close(convert(3.0, &FOOT, &METER).unwrap(), 0.9144));
        assert!(close(convert(180.0, &DEGREE, &RADIAN).unwrap(), PI));
        assert!(close(convert(2.0, &HOUR, &MINUTE).unwrap(), 120.0));
        assert!(close(
            convert(1.0, &KNOT, &METER_PER_SECOND).unwrap(),
            0.514444444
        ));
        assert!(close(convert(0.0, &CELSIUS, &KELVIN).unwrap(), 273.15));
        assert!(close(convert(212.0, &FAHRENHEIT, &CELSIUS).unwrap(), 100.0));
        assert!(close(
            convert(90.0, &DEGREE_PER_SECOND, &RADIAN_PER_SECOND).unwrap(),
            PI / 2.0
        ));
    }

    #[test]
    fn refuses_across_dimensions() {
        let e = convert(1.0, &METER, &SECOND).unwrap_err();
        assert_eq!(e.from_dim, Dimension::Length);
        assert!(e.to_string().contains("dimensions differ"));
    }

    #[test]
    fn finds_units_by_any_spelling() {
        assert_eq!(Unit::by_name("METER").unwrap().name, "METER");
        assert_eq!(Unit::by_name("meter").unwrap().name, "METER");
        assert_eq!(Unit::by_name("m/s").unwrap().name, "METER_PER_SECOND");
        assert_eq!(
            Unit::by_name("meter_per_second").unwrap().name,
            "METER_PER_SECOND"
        );
        assert_eq!(Unit::by_name("psu").unwrap().dimension, Dimension::Salinity);
        assert!(Unit::by_name("furlong").is_none());
        for u in ALL {
            assert!(
                close(u.from_canonical(u.to_canonical(12.5)), 12.5),
                "{}",
                u.name
            );
            assert_eq!(Unit::canonical(u.dimension).dimension, u.dimension);
        }
    }
}
