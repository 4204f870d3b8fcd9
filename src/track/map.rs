//! Where each vantage point of a set stands on a world map, and how visible one brand was
//! there in the newest run. Pure: trends in, points out; `ui::track_map` draws them.

use crate::geo;

use super::trends::Trends;

/// How visible the brand was at one vantage point, in bands a map can show with one symbol
/// each (colour alone would be lost under `NO_COLOR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Band {
    /// No answer from there in the newest run (pending or failed).
    Unknown,
    /// Named in no answer.
    None,
    /// Named in up to a third of the answers.
    Low,
    /// Named in up to two thirds.
    Middle,
    /// Named in more than two thirds.
    High,
}

impl Band {
    pub const ALL: [Band; 5] = [
        Band::High,
        Band::Middle,
        Band::Low,
        Band::None,
        Band::Unknown,
    ];

    /// From a visibility in percent, `None` when there was no answer.
    pub fn of(visibility: Option<f64>) -> Band {
        match visibility {
            None => Band::Unknown,
            Some(v) if v <= 0.0 => Band::None,
            Some(v) if v <= 100.0 / 3.0 => Band::Low,
            Some(v) if v <= 200.0 / 3.0 => Band::Middle,
            Some(_) => Band::High,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Band::High => "●",
            Band::Middle => "◐",
            Band::Low => "○",
            Band::None => "×",
            Band::Unknown => "?",
        }
    }

    /// The legend's words for the band.
    pub fn meaning(self) -> &'static str {
        match self {
            Band::High => "> 67%",
            Band::Middle => "34–67%",
            Band::Low => "1–33%",
            Band::None => "0%",
            Band::Unknown => "no answer",
        }
    }
}

/// One vantage point of the set on the map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapPoint {
    /// The location as trends label it, e.g. `"US/CO/Denver"`.
    pub location: String,
    pub longitude: f64,
    pub latitude: f64,
    /// False when the city is not in the tables and the point is the country's.
    pub at_city: bool,
    /// Percent of the newest run's answers from there that name the brand.
    pub visibility: Option<f64>,
    pub band: Band,
}

impl MapPoint {
    /// What the map writes beside the symbol: the city, else the country code.
    pub fn short_name(&self) -> &str {
        let mut parts = self.location.splitn(3, '/');
        let country = parts.next().unwrap_or_default();
        parts
            .nth(1)
            .filter(|city| !city.is_empty())
            .unwrap_or(country)
    }
}

/// The points of one brand, and the locations that cannot be placed ("anywhere", a
/// country without cities in the tables).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrandMap {
    pub brand: String,
    pub points: Vec<MapPoint>,
    pub unplaced: Vec<String>,
}

/// Where a location label (`country/subdivision/city`, `–` for a part left out) lies: the
/// city when the tables know it in that country, else the country's largest city.
pub fn place(label: &str) -> Option<(geo::Position, bool)> {
    let mut parts = label.splitn(3, '/');
    let country = parts.next().filter(|c| c.len() == 2)?;
    let city = parts.nth(1).filter(|c| !c.is_empty());
    let found = city.and_then(|name| {
        geo::cities(country)
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name) || c.alias.eq_ignore_ascii_case(name))
    });
    match found {
        Some(c) => Some((c.position, true)),
        None => geo::country_position(country).map(|p| (p, false)),
    }
}

/// The map of brand number `brand` (an index into `trends.brands`) in the newest run;
/// `None` when there is no such brand.
pub fn brand_map(trends: &Trends, brand: usize) -> Option<BrandMap> {
    let trend = trends.brands.get(brand)?;
    let mut map = BrandMap {
        brand: trend.brand.clone(),
        ..BrandMap::default()
    };
    for (location, stats) in &trend.by_location {
        let visibility = stats.last().and_then(|s| s.visibility());
        match place(location) {
            Some((position, at_city)) => map.points.push(MapPoint {
                location: location.clone(),
                longitude: position.longitude(),
                latitude: position.latitude(),
                at_city,
                visibility,
                band: Band::of(visibility),
            }),
            None => map.unplaced.push(location.clone()),
        }
    }
    Some(map)
}

/// The map of every watched brand, in the order of `trends.brands`.
pub fn brand_maps(trends: &Trends) -> Vec<BrandMap> {
    (0..trends.brands.len())
        .filter_map(|b| brand_map(trends, b))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::trends::{self, AnswerObservation, RunObservations};

    fn answer(location: &str, named: bool) -> AnswerObservation {
        AnswerObservation {
            query: "boots".to_string(),
            model: "chatgpt".to_string(),
            device: String::new(),
            location: location.to_string(),
            brands: vec![trends::Seen::at(named.then_some(1))],
            domains: Vec::new(),
        }
    }

    #[test]
    fn cities_countries_and_anywhere_are_placed_as_far_as_known() {
        let (denver, at_city) = place("US/CO/Denver").expect("Denver");
        assert!(at_city);
        assert!((denver.latitude() - 39.74).abs() < 0.1, "{denver:?}");
        let (munich, at_city) = place("DE/–/munich").expect("the alias finds München");
        assert!(at_city && munich.longitude() > 11.0);
        let (fr, at_city) = place("FR").expect("France");
        assert!(
            !at_city,
            "a country is placed at its largest city, not a city of its own"
        );
        assert!((fr.latitude() - 48.85).abs() < 0.1, "Paris: {fr:?}");
        let (_, at_city) = place("US/–/Nowhereville").expect("falls back to the country");
        assert!(!at_city);
        assert_eq!(place("anywhere"), None);
        assert_eq!(place("ZZ/–/Atlantis"), None);
    }

    #[test]
    fn the_newest_run_colours_each_point() {
        let old = RunObservations {
            label: "day 1".to_string(),
            answers: vec![answer("US/CO/Denver", false)],
            results: Vec::new(),
        };
        let new = RunObservations {
            label: "day 2".to_string(),
            answers: vec![
                answer("US/CO/Denver", true),
                answer("DE/–/Berlin", true),
                answer("DE/–/Berlin", false),
                answer("DE/–/Berlin", false),
                answer("anywhere", false),
            ],
            results: Vec::new(),
        };
        let t = trends::trends(&[old, new], &["Merrell".to_string()]);
        let map = brand_map(&t, 0).expect("one brand");
        assert_eq!(map.brand, "Merrell");
        let bands: Vec<(&str, Band)> = map
            .points
            .iter()
            .map(|p| (p.location.as_str(), p.band))
            .collect();
        assert_eq!(
            bands,
            [("US/CO/Denver", Band::High), ("DE/–/Berlin", Band::Low)]
        );
        assert_eq!(map.unplaced, ["anywhere"]);
        assert_eq!(map.points[1].short_name(), "Berlin");
        assert!(brand_map(&t, 1).is_none());
    }

    #[test]
    fn bands_split_visibility_in_thirds() {
        assert_eq!(Band::of(None), Band::Unknown);
        assert_eq!(Band::of(Some(0.0)), Band::None);
        assert_eq!(Band::of(Some(33.0)), Band::Low);
        assert_eq!(Band::of(Some(50.0)), Band::Middle);
        assert_eq!(Band::of(Some(100.0)), Band::High);
    }
}
