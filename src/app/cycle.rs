//! Settings that one key steps through, in the order of their list.

/// The value after `current` in `all`, wrapping to the first.
pub(super) fn next<T: Copy + PartialEq>(all: &[T], current: T) -> T {
    let at = all.iter().position(|v| *v == current).map_or(0, |i| i + 1);
    all.get(at % all.len().max(1)).copied().unwrap_or(current)
}

/// The value after `current` in `all`, with "unset" between the last and the first.
pub(super) fn next_or_unset<T: Copy + PartialEq>(all: &[T], current: Option<T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|v| *v == c)) {
        None => all.first().copied(),
        Some(i) => all.get(i + 1).copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_wrap_and_unset_sits_between_last_and_first() {
        assert_eq!(next(&[1, 2, 3], 3), 1);
        assert_eq!(next(&[1, 2, 3], 1), 2);
        assert_eq!(next::<u8>(&[], 7), 7);
        assert_eq!(next_or_unset(&[1, 2], None), Some(1));
        assert_eq!(next_or_unset(&[1, 2], Some(2)), None);
    }
}
