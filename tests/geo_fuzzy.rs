//! Fuzzy ranking as pickers use it.

use std::time::Instant;

use proptest::prelude::*;
use vantage::fuzzy::{FuzzyMatcher, Ranked};
use vantage::geo;

fn names(ranked: &[Ranked], candidates: &[&str]) -> Vec<String> {
    ranked
        .iter()
        .map(|r| candidates[r.index].to_owned())
        .collect()
}

fn us_city_names() -> Vec<&'static str> {
    geo::cities("US").iter().map(|c| c.name).collect()
}

#[test]
fn new_york_ranks_high() {
    let candidates = us_city_names();
    let mut m = FuzzyMatcher::new();
    for query in ["new york", "nyc", "New York"] {
        let ranked = m.rank(query, candidates.iter().copied());
        let top = names(&ranked[..ranked.len().min(3)], &candidates);
        assert!(top.iter().any(|n| n == "New York City"), "{query}: {top:?}");
    }
    let states: Vec<_> = geo::subdivisions("US").iter().map(|s| s.name).collect();
    let ranked = m.rank("new york", states.iter().copied());
    assert_eq!(states[ranked[0].index], "New York");
}

#[test]
fn munchen_finds_munchen() {
    let candidates: Vec<_> = geo::cities("DE").iter().map(|c| c.name).collect();
    let mut m = FuzzyMatcher::new();
    let ranked = m.rank("munchen", candidates.iter().copied());
    assert_eq!(candidates[ranked[0].index], "München");
    assert_eq!(ranked[0].positions, (0..7).collect::<Vec<u32>>());
    // Accents in the query are matched exactly.
    let ranked = m.rank("münchen", ["Munchen", "München"]);
    assert_eq!(ranked.iter().map(|r| r.index).collect::<Vec<_>>(), [1]);
}

#[test]
fn case_is_smart() {
    let mut m = FuzzyMatcher::new();
    assert_eq!(m.rank("berlin", ["BERLIN", "Berlin"]).len(), 2);
    let ranked = m.rank("Berlin", ["BERLIN", "Berlin"]);
    assert_eq!(ranked.iter().map(|r| r.index).collect::<Vec<_>>(), [1]);
}

#[test]
fn empty_query_keeps_everything_in_order() {
    let candidates = ["b", "a", "c", ""];
    let mut m = FuzzyMatcher::new();
    for query in ["", "   "] {
        let ranked = m.rank(query, candidates);
        assert_eq!(
            ranked.iter().map(|r| r.index).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert!(
            ranked
                .iter()
                .all(|r| r.score == 0 && r.positions.is_empty())
        );
    }
    assert!(m.rank("x", std::iter::empty()).is_empty());
}

#[test]
fn ties_keep_the_original_order() {
    let mut m = FuzzyMatcher::new();
    let ranked = m.rank("ab", ["xab", "ab", "yab", "ab", "zzz"]);
    let indices: Vec<_> = ranked.iter().map(|r| r.index).collect();
    assert_eq!(indices, [1, 3, 0, 2]);
    assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn ranking_thirty_thousand_names_is_quick() {
    let mut candidates: Vec<&str> = geo::countries()
        .iter()
        .flat_map(|c| geo::cities(c.code))
        .map(|c| c.name)
        .collect();
    candidates.truncate(30_000);
    assert_eq!(candidates.len(), 30_000);
    let mut m = FuzzyMatcher::new();
    for query in ["san", "new york", "munchen", "x"] {
        let start = Instant::now();
        let ranked = m.rank(query, candidates.iter().copied());
        println!(
            "ranking {} names for {query:?}: {} matches in {:?}",
            candidates.len(),
            ranked.len(),
            start.elapsed()
        );
    }
    // Loose bound (debug builds, busy machines); release measures a few ms.
    let start = Instant::now();
    m.rank("sa", candidates.iter().copied());
    assert!(start.elapsed().as_secs() < 2);
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn rank_never_panics_and_indices_are_in_range(
        query in "\\PC{0,12}",
        candidates in proptest::collection::vec("\\PC{0,24}", 0..40),
    ) {
        let mut m = FuzzyMatcher::new();
        let ranked = m.rank(&query, candidates.iter().map(String::as_str));
        prop_assert!(ranked.len() <= candidates.len());
        let mut seen = vec![false; candidates.len()];
        for r in &ranked {
            prop_assert!(r.index < candidates.len());
            prop_assert!(!seen[r.index], "index returned twice");
            seen[r.index] = true;
            let len = candidates[r.index].chars().count() as u32;
            prop_assert!(r.positions.iter().all(|&p| p < len));
            prop_assert!(r.positions.windows(2).all(|w| w[0] < w[1]));
        }
        prop_assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn rank_matches_its_own_candidates(s in "[a-zA-Z ]{1,16}") {
        let mut m = FuzzyMatcher::new();
        let ranked = m.rank(&s, [s.as_str()]);
        prop_assert_eq!(ranked.len(), 1);
    }
}
