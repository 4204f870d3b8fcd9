//! Countries, subdivisions, cities and languages embedded from `assets/geo/`.
//!
//! The tables are tab-separated text compiled into the binary with `include_str!` and parsed
//! once, on first use, into `'static` slices that borrow from the embedded text. No I/O.
//! A malformed line is skipped, never a panic. `assets/geo/README.md` names the sources.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

const COUNTRIES_TSV: &str = include_str!("../assets/geo/countries.tsv");
const SUBDIVISIONS_TSV: &str = include_str!("../assets/geo/subdivisions.tsv");
const CITIES_TSV: &str = include_str!("../assets/geo/cities.tsv");
const LANGUAGES_TSV: &str = include_str!("../assets/geo/languages.tsv");

/// A country: ISO 3166-1 alpha-2 code and its common English name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Country {
    /// Upper-case alpha-2 code, e.g. `"US"`.
    pub code: &'static str,
    /// Common name, e.g. `"Bolivia"` rather than the formal one.
    pub name: &'static str,
}

/// A first-level subdivision from ISO 3166-2 (an entry without a parent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Subdivision {
    /// Full code, e.g. `"US-NY"`.
    pub code: &'static str,
    /// The part after the separator, e.g. `"NY"`: the value the service takes.
    pub short: &'static str,
    /// Name as iso-codes spells it (bracketed alternatives removed), e.g. `"Bayern"`.
    pub name: &'static str,
    /// Kind of subdivision, e.g. `"State"`, `"Land"`, `"Country"`.
    pub kind: &'static str,
}

/// A populated place from GeoNames (population at least 15,000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct City {
    /// Name shown in pickers, e.g. `"München"`.
    pub name: &'static str,
    /// Upper-case alpha-2 code of the country.
    pub country: &'static str,
    pub population: u32,
    /// The first-level subdivision: the ISO 3166-2 part where GeoNames uses it or
    /// `generate.py` maps it, else GeoNames' own admin1 code; empty when unknown.
    pub admin1: &'static str,
    /// Another name to search by, empty when none: GeoNames' English name where the
    /// picker shows the local one (`"Munich"` for `"München"`).
    pub alias: &'static str,
    /// Where the city lies, to two decimals of a degree.
    pub position: Position,
}

/// A point on the globe in hundredths of a degree (about 1 km), as `cities.tsv` stores it.
/// Integers keep `City` `Eq` and `Hash` and fit in four bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    latitude_hundredths: i16,
    longitude_hundredths: i16,
}

impl Position {
    /// Degrees north (negative: south), -90..=90.
    pub fn latitude(self) -> f64 {
        f64::from(self.latitude_hundredths) / 100.0
    }

    /// Degrees east (negative: west), -180..=180.
    pub fn longitude(self) -> f64 {
        f64::from(self.longitude_hundredths) / 100.0
    }

    /// Reads the table's decimal degrees; `None` outside the globe or when not a number.
    fn parse(latitude: &str, longitude: &str) -> Option<Position> {
        let hundredths = |text: &str, limit: f64| {
            let degrees: f64 = text.parse().ok()?;
            // `as` after the range check cannot truncate: ±18,000 fits an i16.
            (degrees.abs() <= limit).then_some((degrees * 100.0).round() as i16)
        };
        Some(Position {
            latitude_hundredths: hundredths(latitude, 90.0)?,
            longitude_hundredths: hundredths(longitude, 180.0)?,
        })
    }
}

/// A language with an ISO 639-1 two-letter code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Language {
    /// Lower-case two-letter code, e.g. `"de"`.
    pub code: &'static str,
    /// English name, e.g. `"German"`.
    pub name: &'static str,
}

struct Tables {
    countries: Vec<Country>,
    country_by_code: HashMap<&'static str, usize>,
    subdivisions: Vec<Subdivision>,
    subdivisions_by_country: HashMap<&'static str, Range<usize>>,
    cities: Vec<City>,
    cities_by_country: HashMap<&'static str, Range<usize>>,
    languages: Vec<Language>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| parse(COUNTRIES_TSV, SUBDIVISIONS_TSV, CITIES_TSV, LANGUAGES_TSV))
}

/// Forces the tables to be parsed now (e.g. on a background thread at start-up).
pub fn preload() {
    tables();
}

/// All countries, sorted by name.
pub fn countries() -> &'static [Country] {
    &tables().countries
}

/// The country with this alpha-2 code, case-insensitively.
pub fn country(code: &str) -> Option<&'static Country> {
    let t = tables();
    t.country_by_code
        .get(upper(code).as_str())
        .map(|&i| &t.countries[i])
}

/// First-level subdivisions of a country, sorted by name; empty for an unknown country.
pub fn subdivisions(country: &str) -> &'static [Subdivision] {
    let t = tables();
    match t.subdivisions_by_country.get(upper(country).as_str()) {
        Some(range) => &t.subdivisions[range.clone()],
        None => &[],
    }
}

/// The first-level subdivision of `country` whose short code is `short`, case-insensitively.
/// A full code (`"US-NY"`) is accepted as `short` too.
pub fn subdivision(country: &str, short: &str) -> Option<&'static Subdivision> {
    let wanted = upper(short);
    subdivisions(country)
        .iter()
        .find(|s| s.short == wanted || s.code == wanted)
}

/// The subdivision a city lies in, where the data maps its admin1 code to one.
pub fn subdivision_of(city: &City) -> Option<&'static Subdivision> {
    if city.admin1.is_empty() {
        return None;
    }
    subdivision(city.country, city.admin1)
}

/// Cities of a country in one subdivision, by population descending; `None` when the data
/// cannot tell which cities of the country lie in it (no city's admin1 code maps to it).
pub fn cities_in(country: &str, subdivision: &str) -> Option<Vec<&'static City>> {
    let wanted = self::subdivision(country, subdivision)?;
    let found: Vec<&'static City> = cities(country)
        .iter()
        .filter(|c| c.admin1 == wanted.short)
        .collect();
    (!found.is_empty()).then_some(found)
}

/// Cities of a country, by population descending; empty for an unknown country.
pub fn cities(country: &str) -> &'static [City] {
    let t = tables();
    match t.cities_by_country.get(upper(country).as_str()) {
        Some(range) => &t.cities[range.clone()],
        None => &[],
    }
}

/// All languages, sorted by name.
pub fn languages() -> &'static [Language] {
    &tables().languages
}

/// The language with this two-letter code or this English name, case-insensitively.
pub fn language(code_or_name: &str) -> Option<&'static Language> {
    let wanted = code_or_name.trim();
    if wanted.is_empty() {
        return None;
    }
    let all = languages();
    all.iter()
        .find(|l| l.code.eq_ignore_ascii_case(wanted))
        .or_else(|| {
            let lower = wanted.to_lowercase();
            all.iter().find(|l| l.name.to_lowercase() == lower)
        })
}

/// Other names a country is commonly called by: abbreviations, older names and names in its
/// own language. They find the country in the picker and the command line as its name does.
const COUNTRY_ALIASES: &[(&str, &[&str])] = &[
    (
        "US",
        &[
            "USA",
            "U.S.",
            "U.S.A.",
            "United States of America",
            "America",
        ],
    ),
    (
        "GB",
        &[
            "UK",
            "U.K.",
            "Britain",
            "Great Britain",
            "England",
            "Scotland",
            "Wales",
        ],
    ),
    ("DE", &["Deutschland"]),
    ("AE", &["UAE", "Emirates"]),
    ("NL", &["Holland", "Nederland"]),
    ("CH", &["Schweiz", "Suisse", "Svizzera"]),
    ("AT", &["Österreich"]),
    ("ES", &["España"]),
    ("IT", &["Italia"]),
    ("MX", &["México"]),
    ("BR", &["Brasil"]),
    ("SE", &["Sverige"]),
    ("NO", &["Norge"]),
    ("DK", &["Danmark"]),
    ("FI", &["Suomi"]),
    ("PL", &["Polska"]),
    ("GR", &["Hellas"]),
    ("TR", &["Turkey", "Turkiye"]),
    ("CZ", &["Czech Republic"]),
    ("KR", &["Korea"]),
    ("RU", &["Russia"]),
    ("CI", &["Ivory Coast"]),
    ("MM", &["Burma"]),
    ("SZ", &["Swaziland"]),
    ("MK", &["Macedonia"]),
    ("CV", &["Cape Verde"]),
    ("TL", &["East Timor"]),
    ("VA", &["Vatican"]),
];

/// The other names of a country (see `COUNTRY_ALIASES`); empty when it has none.
pub fn country_aliases(code: &str) -> &'static [&'static str] {
    let code = upper(code);
    COUNTRY_ALIASES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(&[], |(_, aliases)| aliases)
}

/// English names of subdivisions the tables (iso-codes) spell in their own language,
/// by full ISO 3166-2 code: "Bavaria" finds Bayern as "Munich" finds München.
const SUBDIVISION_ALIASES: &[(&str, &[&str])] = &[
    ("AT-2", &["Carinthia"]),
    ("AT-3", &["Lower Austria"]),
    ("AT-4", &["Upper Austria"]),
    ("AT-6", &["Styria"]),
    ("AT-7", &["Tyrol"]),
    ("AT-9", &["Vienna"]),
    ("BE-BRU", &["Brussels", "Brussels-Capital Region"]),
    ("BE-VLG", &["Flanders", "Flemish Region"]),
    ("BE-WAL", &["Wallonia", "Walloon Region"]),
    ("CH-BE", &["Berne"]),
    ("CH-FR", &["Fribourg"]),
    ("CH-GE", &["Geneva"]),
    ("CH-GR", &["Grisons"]),
    ("CH-LU", &["Lucerne"]),
    ("CH-SG", &["St. Gallen", "Saint Gallen"]),
    ("CH-TI", &["Tessin"]),
    ("CH-ZH", &["Zurich"]),
    ("CZ-10", &["Prague"]),
    ("CZ-20", &["Central Bohemia"]),
    ("CZ-31", &["South Bohemia"]),
    ("CZ-64", &["South Moravia"]),
    ("CZ-80", &["Moravia-Silesia"]),
    ("DE-BY", &["Bavaria"]),
    ("DE-HE", &["Hesse"]),
    ("DE-MV", &["Mecklenburg-Western Pomerania"]),
    ("DE-NI", &["Lower Saxony"]),
    ("DE-NW", &["North Rhine-Westphalia"]),
    ("DE-RP", &["Rhineland-Palatinate"]),
    ("DE-SN", &["Saxony"]),
    ("DE-ST", &["Saxony-Anhalt"]),
    ("DE-TH", &["Thuringia"]),
    ("DK-81", &["North Denmark"]),
    ("DK-82", &["Central Denmark"]),
    ("DK-83", &["Southern Denmark"]),
    ("DK-84", &["Capital Region"]),
    ("DK-85", &["Zealand"]),
    ("ES-AN", &["Andalusia"]),
    ("ES-AS", &["Asturias"]),
    ("ES-CL", &["Castile and León"]),
    ("ES-CM", &["Castilla-La Mancha", "Castile-La Mancha"]),
    ("ES-CN", &["Canary Islands"]),
    ("ES-CT", &["Catalonia", "Cataluña"]),
    ("ES-IB", &["Balearic Islands"]),
    ("ES-MC", &["Murcia"]),
    ("ES-MD", &["Madrid"]),
    ("ES-NC", &["Navarre", "Navarra"]),
    ("ES-PV", &["Basque Country", "País Vasco"]),
    ("ES-VC", &["Valencia", "Valencian Community"]),
    ("FR-20R", &["Corsica"]),
    ("FR-BRE", &["Brittany"]),
    ("FR-GF", &["French Guiana"]),
    ("FR-NOR", &["Normandy"]),
    ("FR-OCC", &["Occitania"]),
    ("FR-PAC", &["Provence-Alpes-Côte d'Azur"]),
    ("FR-PDL", &["Pays de la Loire"]),
    ("IT-21", &["Piedmont"]),
    ("IT-23", &["Aosta Valley", "Valle d'Aosta"]),
    ("IT-25", &["Lombardy"]),
    ("IT-32", &["Trentino-South Tyrol"]),
    ("IT-52", &["Tuscany"]),
    ("IT-57", &["Marches"]),
    ("IT-75", &["Apulia"]),
    ("IT-82", &["Sicily"]),
    ("IT-88", &["Sardinia"]),
    ("NL-FR", &["Friesland"]),
    ("NL-NB", &["North Brabant"]),
    ("NL-NH", &["North Holland"]),
    ("NL-ZH", &["South Holland"]),
    ("PL-02", &["Lower Silesia"]),
    ("PL-12", &["Lesser Poland"]),
    ("PL-14", &["Masovia"]),
    ("PL-24", &["Silesia"]),
    ("PL-30", &["Greater Poland"]),
    ("PT-11", &["Lisbon"]),
    ("PT-20", &["Azores"]),
    ("PT-30", &["Madeira"]),
];

/// The English names of a subdivision (see `SUBDIVISION_ALIASES`), by its full code;
/// empty when it has none.
pub fn subdivision_aliases(code: &str) -> &'static [&'static str] {
    let code = upper(code);
    SUBDIVISION_ALIASES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(&[], |(_, aliases)| aliases)
}

/// The country a person means by `text`: its alpha-2 code, its name or one of its other
/// names, case- and accent-insensitively.
pub fn find_country(text: &str) -> Option<&'static Country> {
    let wanted = text.trim();
    if wanted.is_empty() {
        return None;
    }
    if let Some(country) = country(wanted) {
        return Some(country);
    }
    let key = collation_key(wanted);
    countries().iter().find(|c| {
        collation_key(c.name) == key
            || country_aliases(c.code)
                .iter()
                .any(|alias| collation_key(alias) == key)
    })
}

/// Checks a place against the location tables, exactly as every entry point must before a
/// call is sent: a country that exists (code, name or other name) and a subdivision of that
/// country (short code, full code or name). Returns the codes to send. A country whose
/// subdivisions the tables do not list takes any subdivision; cities stay free text.
pub fn check_place(
    country: Option<&str>,
    subdivision: Option<&str>,
) -> Result<(Option<&'static str>, Option<String>), String> {
    let country = country.map(str::trim).filter(|c| !c.is_empty());
    let subdivision = subdivision.map(str::trim).filter(|s| !s.is_empty());
    let Some(typed_country) = country else {
        return match subdivision {
            Some(s) => Err(format!(
                "The subdivision {s:?} needs a country: give the country too (US for US-NY)."
            )),
            None => Ok((None, None)),
        };
    };
    let Some(found) = find_country(typed_country) else {
        return Err(format!(
            "There is no country {:?} in the location tables. Nearest: {}. \
             Give a two-letter ISO code (US, DE) or a country's name.",
            crate::sanitize::excerpt(typed_country, crate::sanitize::QUOTED_CHARS),
            nearest_countries(typed_country)
        ));
    };
    let Some(typed_subdivision) = subdivision else {
        return Ok((Some(found.code), None));
    };
    let known = subdivisions(found.code);
    if known.is_empty() {
        // The tables know no subdivision of this country: the code goes as typed.
        return Ok((Some(found.code), Some(upper(typed_subdivision))));
    }
    let key = collation_key(typed_subdivision);
    match known.iter().find(|s| {
        s.short.eq_ignore_ascii_case(typed_subdivision)
            || s.code.eq_ignore_ascii_case(typed_subdivision)
            || collation_key(s.name) == key
            || subdivision_aliases(s.code)
                .iter()
                .any(|alias| collation_key(alias) == key)
    }) {
        Some(s) => Ok((Some(found.code), Some(s.short.to_string()))),
        None => Err(format!(
            "{:?} is not a subdivision of {} ({}). Nearest: {}. \
             Give the second part of an ISO 3166-2 code (NY for US-NY) or its name.",
            crate::sanitize::excerpt(typed_subdivision, crate::sanitize::QUOTED_CHARS),
            found.name,
            found.code,
            nearest_subdivisions(typed_subdivision, known)
        )),
    }
}

/// Up to three countries nearest to what was typed, by similarity to their codes and names.
fn nearest_countries(typed: &str) -> String {
    let typed = collation_key(typed);
    let score = |c: &Country| {
        std::iter::once(c.code)
            .chain(std::iter::once(c.name))
            .chain(country_aliases(c.code).iter().copied())
            .map(|name| strsim::jaro_winkler(&typed, &collation_key(name)))
            .fold(0.0, f64::max)
    };
    nearest(countries(), score, |c| format!("{} ({})", c.name, c.code))
}

/// Up to three subdivisions nearest to what was typed, by similarity to codes and names.
fn nearest_subdivisions(typed: &str, known: &[Subdivision]) -> String {
    let typed = collation_key(typed);
    let score = |s: &Subdivision| {
        [s.short, s.name]
            .iter()
            .chain(subdivision_aliases(s.code))
            .map(|name| strsim::jaro_winkler(&typed, &collation_key(name)))
            .fold(0.0, f64::max)
    };
    nearest(known, score, |s| format!("{} ({})", s.name, s.short))
}

fn nearest<T>(items: &[T], score: impl Fn(&T) -> f64, name: impl Fn(&T) -> String) -> String {
    let mut scored: Vec<(f64, &T)> = items.iter().map(|item| (score(item), item)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored
        .iter()
        .take(3)
        .map(|(_, item)| name(item))
        .collect::<Vec<_>>()
        .join(", ")
}

fn upper(code: &str) -> String {
    code.trim().to_ascii_uppercase()
}

/// Sort key for names: case- and diacritic-insensitive, so "Åland Islands" sits among the A's.
fn collation_key(name: &str) -> String {
    name.chars()
        .map(|c| nucleo_matcher::chars::to_lower_case(nucleo_matcher::chars::normalize(c)))
        .collect()
}

fn sort_by_name<T>(items: &mut [T], name: impl Fn(&T) -> &'static str) {
    items.sort_by_cached_key(|item| {
        let n = name(item);
        (collation_key(n), n)
    });
}

/// Where a country is drawn on a map: its most populous city, which is where most vantage
/// points of a country-wide location are meant to stand for (a centroid can fall in the sea
/// or an empty desert). `None` for a country without a city in the table.
pub fn country_position(code: &str) -> Option<Position> {
    cities(code).first().map(|c| c.position)
}

/// The non-empty lines of a table split into exactly `N` tab-separated fields.
fn records<const N: usize>(text: &'static str) -> impl Iterator<Item = [&'static str; N]> {
    text.lines().filter_map(|line| {
        let mut fields = line.split('\t');
        let mut out = [""; N];
        for slot in &mut out {
            *slot = fields.next()?;
        }
        fields.next().is_none().then_some(out)
    })
}

fn is_alpha2(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase())
}

/// Index ranges of runs of equal keys in a slice sorted by that key.
fn runs<T>(items: &[T], key: impl Fn(&T) -> &'static str) -> HashMap<&'static str, Range<usize>> {
    let mut map = HashMap::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || key(&items[i]) != key(&items[start]) {
            if i > start {
                map.insert(key(&items[start]), start..i);
            }
            start = i;
        }
    }
    map
}

fn parse(
    countries_tsv: &'static str,
    subdivisions_tsv: &'static str,
    cities_tsv: &'static str,
    languages_tsv: &'static str,
) -> Tables {
    let mut countries: Vec<Country> = records::<2>(countries_tsv)
        .filter(|[code, name]| is_alpha2(code) && !name.is_empty())
        .map(|[code, name]| Country { code, name })
        .collect();
    sort_by_name(&mut countries, |c| c.name);
    countries.dedup_by_key(|c| c.code);
    let country_by_code = countries
        .iter()
        .enumerate()
        .map(|(i, c)| (c.code, i))
        .collect();

    let mut subdivisions: Vec<Subdivision> = records::<3>(subdivisions_tsv)
        .filter_map(|[code, name, kind]| {
            let (country, short) = code.split_once('-')?;
            (is_alpha2(country) && !short.is_empty() && !name.is_empty()).then_some(Subdivision {
                code,
                short,
                name,
                kind,
            })
        })
        .collect();
    sort_by_name(&mut subdivisions, |s| s.name);
    // Stable: keeps name order within each country.
    subdivisions.sort_by_key(|s| &s.code[..2]);
    let subdivisions_by_country = runs(&subdivisions, |s| &s.code[..2]);

    let mut cities: Vec<City> = records::<7>(cities_tsv)
        .filter_map(
            |[
                country,
                population,
                name,
                admin1,
                alias,
                latitude,
                longitude,
            ]| {
                let population = population.parse().ok()?;
                let position = Position::parse(latitude, longitude)?;
                (is_alpha2(country) && !name.is_empty()).then_some(City {
                    name,
                    country,
                    population,
                    admin1,
                    alias,
                    position,
                })
            },
        )
        .collect();
    // The file is already in this order; sorting again is cheap and keeps the promise.
    cities.sort_by(|a, b| {
        (a.country, std::cmp::Reverse(a.population))
            .cmp(&(b.country, std::cmp::Reverse(b.population)))
    });
    let cities_by_country = runs(&cities, |c| c.country);

    let mut languages: Vec<Language> = records::<2>(languages_tsv)
        .filter(|[code, name]| !code.is_empty() && !name.is_empty())
        .map(|[code, name]| Language { code, name })
        .collect();
    sort_by_name(&mut languages, |l| l.name);

    Tables {
        countries,
        country_by_code,
        subdivisions,
        subdivisions_by_country,
        cities,
        cities_by_country,
        languages,
    }
}

/// `cc:subdivision:city` with `+` for spaces and empty parts allowed: `us:ny:New+York`,
/// `de::Berlin`, `fr`, `usa`. Subdivision and city need a country; country and subdivision
/// must be in the location tables.
pub fn parse_location(text: &str) -> Result<crate::api::Location, String> {
    // A pasted paragraph is named by its start.
    let quoted = crate::sanitize::excerpt(text, crate::sanitize::QUOTED_CHARS);
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.len() > 3 {
        return Err(format!(
            "location {quoted:?} has more than three parts; write cc:subdivision:city."
        ));
    }
    let part = |i: usize| -> Option<String> {
        parts
            .get(i)
            .map(|p| p.replace('+', " ").trim().to_string())
            .filter(|p| !p.is_empty())
    };
    let (country, subdivision) = (part(0), part(1));
    if country.is_none() && (subdivision.is_some() || part(2).is_some()) {
        return Err(format!(
            "location {quoted:?} has a subdivision or city but no country; write cc:subdivision:city."
        ));
    }
    // The same check of the location tables as every other entry point.
    let (country, subdivision) = check_place(country.as_deref(), subdivision.as_deref())
        .map_err(|sentence| format!("location {quoted:?}: {sentence}"))?;
    Ok(crate::api::Location {
        country: country.map(str::to_string),
        subdivision,
        city: part(2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_are_skipped() {
        let t = parse(
            "US\tUnited States\nbad line\nxx\tlower\nDE\tGermany\textra\n\n",
            "US-NY\tNew York\tState\nUSNY\tNo separator\tState\n-\t\t\nUS-CA\tCalifornia\n",
            "US\t100\tA\t\t\t40.71\t-74.01\nUS\tlots\tB\t\t\t0\t0\nUS\t200\tC\tNY\t\t1\t2\n\
             US\t1\nUS\t300\tNo position\t\t\t\t\nUS\t300\tOff the globe\t\t\t91\t0\n",
            "en\tEnglish\n\tNameless\n",
        );
        assert_eq!(t.countries.len(), 1);
        assert_eq!(t.subdivisions.len(), 1);
        assert_eq!(t.subdivisions[0].short, "NY");
        let names: Vec<_> = t.cities.iter().map(|c| c.name).collect();
        assert_eq!(names, ["C", "A"]);
        assert_eq!(t.cities[1].position.latitude(), 40.71);
        assert_eq!(t.cities[1].position.longitude(), -74.01);
        assert_eq!(t.languages.len(), 1);
    }

    #[test]
    fn parsing_everything_is_fast() {
        // Budget: 20 ms in release. Debug builds and busy machines get a loose bound so
        // this only catches something pathological; the time is printed with --nocapture.
        let start = std::time::Instant::now();
        let t = parse(COUNTRIES_TSV, SUBDIVISIONS_TSV, CITIES_TSV, LANGUAGES_TSV);
        let elapsed = start.elapsed();
        println!(
            "parsed {} countries, {} subdivisions, {} cities, {} languages in {elapsed:?}",
            t.countries.len(),
            t.subdivisions.len(),
            t.cities.len(),
            t.languages.len()
        );
        assert!(t.cities.len() > 30_000);
        let budget = if cfg!(debug_assertions) { 2000 } else { 100 };
        assert!(elapsed.as_millis() < budget, "parsing took {elapsed:?}");
    }

    #[test]
    fn every_english_name_of_a_subdivision_names_one_in_the_tables() {
        for (code, _) in SUBDIVISION_ALIASES {
            let (country, short) = code.split_once('-').unwrap();
            assert!(subdivision(country, short).is_some(), "{code}");
        }
    }

    #[test]
    fn collation_ignores_case_and_diacritics() {
        assert!(collation_key("Åland Islands") < collation_key("Albania"));
        assert_eq!(collation_key("Côte"), "cote");
    }
}
