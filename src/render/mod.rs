//! HTML to styled, wrappable text, and the links it holds. Pure functions.
