//! The robot server (what MobileSim does).
