//! Countries, subdivisions, cities and languages embedded from assets/.
