//! The service contract as types, and the HTTP client.
