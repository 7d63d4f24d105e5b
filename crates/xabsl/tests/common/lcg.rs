//! The fixed-seed generator of the engine's tests, benchmark and `cycle_cost` example:
//! Knuth's MMIX linear congruential generator, the 53 high bits as a number in [0, 1).
//! The local host of the reference C++ engine draws its input frames the same way, so
//! both engines see the same inputs.

/// A linear congruential generator (the state is the seed to start with).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}
