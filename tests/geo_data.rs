//! The embedded location and language tables.

use vantage::geo;

#[test]
fn preload_then_lookups_agree() {
    geo::preload();
    assert!(geo::country("US").is_some());
}

#[test]
fn country_lookup_is_case_insensitive() {
    let us = geo::country("us").expect("US");
    assert_eq!(us.code, "US");
    assert_eq!(us.name, "United States");
    assert_eq!(geo::country("De").map(|c| c.name), Some("Germany"));
    assert_eq!(geo::country(" gb ").map(|c| c.code), Some("GB"));
    assert!(geo::country("ZZ").is_none());
    assert!(geo::country("").is_none());
    assert!(geo::country("USA").is_none());
}

#[test]
fn countries_are_sorted_by_name_and_unique() {
    let all = geo::countries();
    assert!(all.len() >= 240, "{}", all.len());
    let keys: Vec<String> = all.iter().map(|c| fold(c.name)).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not sorted");
    let mut codes: Vec<_> = all.iter().map(|c| c.code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), all.len());
    // Common names, not the formal ones.
    assert!(all.iter().any(|c| c.name == "South Korea"));
}

#[test]
fn us_has_new_york() {
    let ny = geo::subdivision("US", "NY").expect("US-NY");
    assert_eq!(ny.code, "US-NY");
    assert_eq!(ny.short, "NY");
    assert_eq!(ny.name, "New York");
    assert_eq!(ny.kind, "State");
    assert_eq!(geo::subdivision("us", "ny"), Some(ny));
    assert_eq!(geo::subdivision("US", "us-ny"), Some(ny));
    assert!(geo::subdivision("US", "BY").is_none());
    let states = geo::subdivisions("US")
        .iter()
        .filter(|s| s.kind == "State")
        .count();
    assert_eq!(states, 50);
}

#[test]
fn germany_has_bavaria() {
    let by = geo::subdivision("de", "by").expect("DE-BY");
    assert_eq!(by.name, "Bayern");
    assert_eq!(by.code, "DE-BY");
    assert_eq!(geo::subdivisions("DE").len(), 16);
}

#[test]
fn gb_first_level_is_the_four_nations() {
    let names: Vec<_> = geo::subdivisions("GB").iter().map(|s| s.name).collect();
    assert_eq!(names, ["England", "Northern Ireland", "Scotland", "Wales"]);
    assert_eq!(
        geo::subdivision("GB", "SCT").map(|s| s.kind),
        Some("Country")
    );
}

#[test]
fn subdivisions_are_first_level_sorted_and_belong_to_their_country() {
    for country in geo::countries() {
        let subs = geo::subdivisions(country.code);
        for s in subs {
            assert_eq!(&s.code[..2], country.code);
            assert_eq!(s.code[3..], *s.short);
            assert!(!s.name.contains('['), "{}", s.name);
        }
        let keys: Vec<String> = subs.iter().map(|s| fold(s.name)).collect();
        assert!(
            keys.windows(2).all(|w| w[0] <= w[1]),
            "{} not sorted",
            country.code
        );
    }
    // Second-level entries are left out: English counties, Spanish provinces.
    assert!(geo::subdivision("GB", "KEN").is_none());
    assert!(geo::subdivision("ES", "B").is_none());
    assert!(geo::subdivision("ES", "CT").is_some());
    assert!(geo::subdivisions("ZZ").is_empty());
}

#[test]
fn us_cities_start_with_new_york_city() {
    let cities = geo::cities("us");
    assert_eq!(cities[0].name, "New York City");
    assert_eq!(cities[0].country, "US");
    assert!(cities[0].population > 8_000_000);
    assert!(cities.len() > 2000, "{}", cities.len());
}

#[test]
fn germany_has_berlin_and_munchen() {
    let cities = geo::cities("DE");
    assert_eq!(cities[0].name, "Berlin");
    let munich = cities
        .iter()
        .find(|c| c.name == "München")
        .expect("München");
    assert_eq!(munich.alias, "Munich");
    assert!(munich.population > 1_000_000);
}

#[test]
fn cities_are_by_population_descending_and_above_the_threshold() {
    for country in geo::countries() {
        let cities = geo::cities(country.code);
        assert!(
            cities
                .windows(2)
                .all(|w| w[0].population >= w[1].population)
        );
        assert!(cities.iter().all(|c| c.country == country.code));
        assert!(cities.iter().all(|c| c.population >= 15_000));
    }
    assert!(geo::cities("ZZ").is_empty());
}

#[test]
fn languages_include_english_and_german() {
    assert_eq!(geo::language("en").map(|l| l.name), Some("English"));
    assert_eq!(geo::language("DE").map(|l| l.name), Some("German"));
    assert_eq!(geo::language("german").map(|l| l.code), Some("de"));
    assert_eq!(geo::language("Dutch").map(|l| l.code), Some("nl"));
    assert!(geo::language("").is_none());
    assert!(geo::language("Klingon").is_none());
    let all = geo::languages();
    assert!(all.len() >= 180, "{}", all.len());
    assert!(all.iter().all(|l| l.code.len() == 2));
    let keys: Vec<String> = all.iter().map(|l| fold(l.name)).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not sorted");
}

/// The order the tables promise: case- and diacritic-insensitive.
fn fold(name: &str) -> String {
    name.chars()
        .map(|c| nucleo_matcher::chars::to_lower_case(nucleo_matcher::chars::normalize(c)))
        .collect()
}

#[test]
fn cities_and_countries_have_positions() {
    let munich = geo::cities("DE")
        .iter()
        .find(|c| c.name == "München")
        .expect("München");
    assert!((munich.position.latitude() - 48.14).abs() < 0.05);
    assert!((munich.position.longitude() - 11.58).abs() < 0.05);
    // South and west come out negative.
    let sydney = geo::cities("AU")
        .iter()
        .find(|c| c.name == "Sydney")
        .expect("Sydney");
    assert!(sydney.position.latitude() < -33.0);
    let new_york = geo::country_position("US").expect("US has cities");
    assert!(new_york.longitude() < -70.0, "{new_york:?}");
    // Every city of the table made it through: a bad coordinate would drop its line.
    let total: usize = geo::countries()
        .iter()
        .map(|c| geo::cities(c.code).len())
        .sum();
    assert!(total > 33_000, "{total}");
}

#[test]
fn common_names_and_aliases_find_their_country() {
    for (typed, code) in [
        ("usa", "US"),
        ("USA", "US"),
        ("United States", "US"),
        ("uk", "GB"),
        ("Britain", "GB"),
        ("Deutschland", "DE"),
        ("de", "DE"),
        ("turkey", "TR"),
        ("Türkiye", "TR"),
    ] {
        assert_eq!(
            vantage::geo::find_country(typed).map(|c| c.code),
            Some(code),
            "{typed}"
        );
    }
}

#[test]
fn a_place_not_in_the_tables_is_refused_with_the_nearest_names() {
    let refused = vantage::geo::check_place(Some("XX"), None).unwrap_err();
    assert!(refused.contains("no country \"XX\""), "{refused}");
    assert!(refused.contains("Nearest:"), "{refused}");
    let refused = vantage::geo::check_place(Some("US"), Some("QQ")).unwrap_err();
    assert!(
        refused.contains("not a subdivision of United States"),
        "{refused}"
    );
    let refused = vantage::geo::check_place(Some("US"), Some("Nw York")).unwrap_err();
    assert!(refused.contains("New York (NY)"), "{refused}");
    assert_eq!(
        vantage::geo::check_place(Some("usa"), Some("new york")).unwrap(),
        (Some("US"), Some("NY".to_string()))
    );
    assert_eq!(
        vantage::geo::check_place(Some("US"), Some("US-CA")).unwrap(),
        (Some("US"), Some("CA".to_string()))
    );
    assert!(vantage::geo::check_place(None, Some("NY")).is_err());
    assert_eq!(vantage::geo::check_place(None, None).unwrap(), (None, None));
}

#[test]
fn a_subdivision_is_taken_by_its_english_name_as_well_as_its_own() {
    for typed in ["Bavaria", "Bayern", "bavaria", "BY", "DE-BY"] {
        assert_eq!(
            vantage::geo::check_place(Some("DE"), Some(typed)).unwrap(),
            (Some("DE"), Some("BY".to_string())),
            "{typed}"
        );
    }
    assert_eq!(
        vantage::geo::parse_location("de:Bavaria:Munich").unwrap(),
        vantage::geo::parse_location("de:by:Munich").unwrap()
    );
    // A near miss suggests the English name's subdivision too.
    let refused = vantage::geo::check_place(Some("DE"), Some("Bavria")).unwrap_err();
    assert!(refused.contains("Bayern (BY)"), "{refused}");
    // Every English name belongs to a subdivision the tables know.
    for country in [
        "AT", "BE", "CH", "CZ", "DE", "DK", "ES", "FR", "IT", "NL", "PL", "PT",
    ] {
        for subdivision in vantage::geo::subdivisions(country) {
            for alias in vantage::geo::subdivision_aliases(subdivision.code) {
                assert_eq!(
                    vantage::geo::check_place(Some(country), Some(alias))
                        .unwrap()
                        .1
                        .as_deref(),
                    Some(subdivision.short),
                    "{alias}"
                );
            }
        }
    }
}
