//! Pure analysis of answers: which tracked brands they name, and the workspace file that
//! lists those brands.

pub mod mentions;
pub mod workspace;
