//! The embedded simulator of the whole service, on loopback.
