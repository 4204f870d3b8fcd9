//! A count with its noun, singular or plural as the count asks: "1 answer", "2 answers",
//! "0 calls". The one way the app and the CLI write a count in a sentence.

/// `n` and the noun that agrees with it: `one` for exactly 1, `many` otherwise.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n, one, many))
}

/// The noun alone that agrees with `n`, for sentences that write the number themselves
/// (with separators, or apart from it).
pub fn noun<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "answer", "answers"), "1 answer");
        assert_eq!(count(0, "answer", "answers"), "0 answers");
        assert_eq!(count(2, "call", "calls"), "2 calls");
        assert_eq!(count(1, "entry", "entries"), "1 entry");
        assert_eq!(noun(11, "run", "runs"), "runs");
    }
}
