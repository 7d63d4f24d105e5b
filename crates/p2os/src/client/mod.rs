//! The client driver (what ARIA does).
