//! Whether a change between two runs is more than chance, and how many answers it would take
//! to tell one. Paired cells (the same prompt, model, device, place and sample slot in both
//! runs) are read with McNemar's exact test: only the cells that changed count, those that
//! gained the brand against those that lost it. Unpaired samples keep Fisher's exact test
//! (`samples::fisher`). Pure.

use super::samples::{ALPHA, fisher};

/// The test named wherever a paired change is stated.
pub const PAIRED_TEST: &str = "McNemar's exact test, two-sided, 95 %";

/// McNemar's exact test, two-sided: of the cells that changed, `lost` stopped naming the
/// brand and `gained` started. Under no change each is a fair coin's side, so p is twice
/// the binomial tail of the rarer side (at most 1). No changed cell: 1.
pub fn mcnemar(lost: usize, gained: usize) -> f64 {
    let n = lost + gained;
    if n == 0 {
        return 1.0;
    }
    let k = lost.min(gained);
    // log C(n, i) - n log 2, summed over i ≤ k, in logs so that thousands of cells do not
    // overflow.
    let mut log_choose = 0.0f64;
    let log_half = n as f64 * std::f64::consts::LN_2;
    let mut tail = 0.0f64;
    for i in 0..=k {
        if i > 0 {
            log_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (log_choose - log_half).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Whether McNemar's test calls the change in these paired cells one at 95 %.
pub fn paired_differ(lost: usize, gained: usize) -> Option<f64> {
    let p = mcnemar(lost, gained);
    (p <= ALPHA).then_some(p)
}

/// The fewest changed cells that can ever be told from chance: every one the same way
/// (p = 2 × 0.5ⁿ ≤ 0.05 from six on).
pub fn fewest_changed_to_tell() -> usize {
    (1..64).find(|&n| mcnemar(n, 0) <= ALPHA).unwrap_or(64)
}

/// The answers each of two runs needs for Fisher's test to tell `from` percent from `to`
/// percent apart (the shares met exactly); none past `most`.
pub fn answers_to_tell(from: f64, to: f64, most: usize) -> Option<usize> {
    if !(from.is_finite() && to.is_finite()) || (from - to).abs() < 1.0 {
        return None;
    }
    let share = |p: f64, n: usize| ((p.clamp(0.0, 100.0) / 100.0) * n as f64).round() as usize;
    (2..=most).find(|&n| fisher(share(from, n), n, share(to, n), n) <= ALPHA)
}

/// The sentence a reading adds when its cells are too few for any change to be told apart:
/// "with 3 answers a run no change can be told from chance; telling 30 % from 60 % takes
/// about 42 a run". None when some change could be told.
pub fn too_few(cells: usize) -> Option<String> {
    let fewest = fewest_changed_to_tell();
    if cells >= fewest {
        return None;
    }
    let needed = answers_to_tell(30.0, 60.0, 1000).unwrap_or(1000);
    Some(format!(
        "{} too few for any change to be told from chance (it takes {fewest} cells that changed the same way); telling 30 % from 60 % takes about {needed} answers a run",
        crate::plural::count(cells as u64, "paired cell is", "paired cells are")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_matches_the_binomial() {
        assert_eq!(mcnemar(0, 0), 1.0);
        // 6 of 6 one way: 2 / 64.
        assert!((mcnemar(6, 0) - 2.0 / 64.0).abs() < 1e-12);
        assert!((mcnemar(0, 6) - 2.0 / 64.0).abs() < 1e-12);
        // 5 of 5: 2 / 32 = 0.0625, not a difference.
        assert!(paired_differ(5, 0).is_none());
        assert!(paired_differ(6, 0).is_some());
        // 1 against 11 (12 changed): 2 × (1 + 12) / 4096 = 0.00635.
        assert!((mcnemar(1, 11) - 26.0 / 4096.0).abs() < 1e-12);
        // Balanced changes are no change at all.
        assert_eq!(mcnemar(7, 7), 1.0);
        // Thousands of cells do not overflow.
        let p = mcnemar(2_000, 2_100);
        assert!(p > 0.0 && p < 1.0, "{p}");
        assert_eq!(fewest_changed_to_tell(), 6);
    }

    #[test]
    fn three_answers_cannot_tell_30_from_60_percent() {
        let needed = answers_to_tell(30.0, 60.0, 1000).unwrap();
        assert!(needed > 3, "{needed}");
        assert!((20..=60).contains(&needed), "{needed}");
        let said = too_few(3).unwrap();
        assert!(said.starts_with("3 paired cells are too few"), "{said}");
        assert!(said.contains(&format!("about {needed} answers")), "{said}");
        assert_eq!(too_few(20), None);
        assert_eq!(answers_to_tell(40.0, 40.0, 100), None);
    }
}
