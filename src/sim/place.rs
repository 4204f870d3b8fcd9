//! Where a request is made from: country names, currencies and local sites, so answers and
//! rankings visibly change with location.

use super::topic::{Category, slugify, title_case};

struct CountryRow {
    code: &'static str,
    name: &'static str,
    currency_symbol: &'static str,
    /// Whether the symbol follows the amount ("129 €").
    symbol_after: bool,
    /// Units of local currency per US dollar, rounded: prices only need to look plausible.
    per_usd: f64,
    tld: &'static str,
    /// Local media and shops: (host, name).
    sites: &'static [(&'static str, &'static str)],
    capital: &'static str,
}

static COUNTRIES: &[CountryRow] = &[
    CountryRow {
        code: "US",
        name: "the United States",
        currency_symbol: "$",
        symbol_after: false,
        per_usd: 1.0,
        tld: "com",
        sites: &[
            ("www.usatoday.com", "USA Today"),
            ("www.bestbuy.com", "Best Buy"),
            ("www.walmart.com", "Walmart"),
        ],
        capital: "Washington",
    },
    CountryRow {
        code: "GB",
        name: "the United Kingdom",
        currency_symbol: "£",
        symbol_after: false,
        per_usd: 0.79,
        tld: "co.uk",
        sites: &[
            ("www.which.co.uk", "Which?"),
            ("www.bbc.co.uk", "BBC"),
            ("www.independent.co.uk", "The Independent"),
            ("www.johnlewis.com", "John Lewis"),
        ],
        capital: "London",
    },
    CountryRow {
        code: "DE",
        name: "Germany",
        currency_symbol: "€",
        symbol_after: true,
        per_usd: 0.92,
        tld: "de",
        sites: &[
            ("www.test.de", "Stiftung Warentest"),
            ("www.chip.de", "CHIP"),
            ("www.idealo.de", "idealo"),
            ("www.spiegel.de", "DER SPIEGEL"),
        ],
        capital: "Berlin",
    },
    CountryRow {
        code: "FR",
        name: "France",
        currency_symbol: "€",
        symbol_after: true,
        per_usd: 0.92,
        tld: "fr",
        sites: &[
            ("www.lesnumeriques.com", "Les Numériques"),
            ("www.fnac.com", "Fnac"),
            ("www.lemonde.fr", "Le Monde"),
            ("www.quechoisir.org", "UFC-Que Choisir"),
        ],
        capital: "Paris",
    },
    CountryRow {
        code: "ES",
        name: "Spain",
        currency_symbol: "€",
        symbol_after: true,
        per_usd: 0.92,
        tld: "es",
        sites: &[
            ("elpais.com", "El País"),
            ("www.ocu.org", "OCU"),
            ("www.elcorteingles.es", "El Corte Inglés"),
        ],
        capital: "Madrid",
    },
    CountryRow {
        code: "IT",
        name: "Italy",
        currency_symbol: "€",
        symbol_after: true,
        per_usd: 0.92,
        tld: "it",
        sites: &[
            ("www.corriere.it", "Corriere della Sera"),
            ("www.altroconsumo.it", "Altroconsumo"),
            ("www.amazon.it", "Amazon.it"),
        ],
        capital: "Rome",
    },
    CountryRow {
        code: "NL",
        name: "the Netherlands",
        currency_symbol: "€",
        symbol_after: false,
        per_usd: 0.92,
        tld: "nl",
        sites: &[
            ("www.consumentenbond.nl", "Consumentenbond"),
            ("www.bol.com", "bol.com"),
            ("tweakers.net", "Tweakers"),
        ],
        capital: "Amsterdam",
    },
    CountryRow {
        code: "CH",
        name: "Switzerland",
        currency_symbol: "CHF ",
        symbol_after: false,
        per_usd: 0.88,
        tld: "ch",
        sites: &[
            ("www.nzz.ch", "NZZ"),
            ("www.galaxus.ch", "Galaxus"),
            ("www.ktipp.ch", "K-Tipp"),
        ],
        capital: "Zurich",
    },
    CountryRow {
        code: "SE",
        name: "Sweden",
        currency_symbol: "kr",
        symbol_after: true,
        per_usd: 10.5,
        tld: "se",
        sites: &[
            ("www.dn.se", "Dagens Nyheter"),
            ("www.prisjakt.nu", "Prisjakt"),
            ("www.radochron.se", "Råd & Rön"),
        ],
        capital: "Stockholm",
    },
    CountryRow {
        code: "JP",
        name: "Japan",
        currency_symbol: "¥",
        symbol_after: false,
        per_usd: 150.0,
        tld: "co.jp",
        sites: &[
            ("kakaku.com", "Kakaku.com"),
            ("www.nikkei.com", "Nikkei"),
            ("www.amazon.co.jp", "Amazon.co.jp"),
        ],
        capital: "Tokyo",
    },
    CountryRow {
        code: "IN",
        name: "India",
        currency_symbol: "₹",
        symbol_after: false,
        per_usd: 83.0,
        tld: "in",
        sites: &[
            ("www.flipkart.com", "Flipkart"),
            ("timesofindia.indiatimes.com", "The Times of India"),
            ("www.amazon.in", "Amazon.in"),
        ],
        capital: "New Delhi",
    },
    CountryRow {
        code: "CA",
        name: "Canada",
        currency_symbol: "C$",
        symbol_after: false,
        per_usd: 1.36,
        tld: "ca",
        sites: &[
            ("www.cbc.ca", "CBC"),
            ("www.mec.ca", "MEC"),
            ("www.theglobeandmail.com", "The Globe and Mail"),
        ],
        capital: "Toronto",
    },
    CountryRow {
        code: "AU",
        name: "Australia",
        currency_symbol: "A$",
        symbol_after: false,
        per_usd: 1.52,
        tld: "com.au",
        sites: &[
            ("www.choice.com.au", "CHOICE"),
            ("www.abc.net.au", "ABC News"),
            ("www.jbhifi.com.au", "JB Hi-Fi"),
        ],
        capital: "Sydney",
    },
    CountryRow {
        code: "BR",
        name: "Brazil",
        currency_symbol: "R$ ",
        symbol_after: false,
        per_usd: 5.0,
        tld: "com.br",
        sites: &[
            ("www1.folha.uol.com.br", "Folha de S.Paulo"),
            ("www.mercadolivre.com.br", "Mercado Livre"),
            ("www.tecmundo.com.br", "TecMundo"),
        ],
        capital: "São Paulo",
    },
    CountryRow {
        code: "MX",
        name: "Mexico",
        currency_symbol: "MX$",
        symbol_after: false,
        per_usd: 17.0,
        tld: "com.mx",
        sites: &[
            ("www.eluniversal.com.mx", "El Universal"),
            ("www.mercadolibre.com.mx", "Mercado Libre"),
            ("www.profeco.gob.mx", "Profeco"),
        ],
        capital: "Mexico City",
    },
];

/// A local site, owned because some are made up from the city's name.
#[derive(Clone, Debug)]
pub(crate) struct LocalSite {
    pub host: String,
    pub name: String,
}

#[derive(Clone, Debug)]
pub(crate) struct Place {
    /// Upper-case ISO code, when a country was asked for.
    pub country_code: Option<String>,
    pub country_name: String,
    pub subdivision: Option<String>,
    pub city: Option<String>,
    currency_symbol: String,
    symbol_after: bool,
    per_usd: f64,
    tld: String,
    country_sites: Vec<LocalSite>,
    capital: String,
}

impl Place {
    pub(crate) fn new(
        country: Option<&str>,
        subdivision: Option<&str>,
        city: Option<&str>,
    ) -> Place {
        let code = country.map(|c| c.to_ascii_uppercase());
        let row = code
            .as_deref()
            .and_then(|code| COUNTRIES.iter().find(|row| row.code == code));
        let (country_name, currency_symbol, symbol_after, per_usd, tld, country_sites, capital) =
            match (row, code.as_deref()) {
                (Some(row), _) => (
                    row.name.to_string(),
                    row.currency_symbol.to_string(),
                    row.symbol_after,
                    row.per_usd,
                    row.tld.to_string(),
                    row.sites
                        .iter()
                        .map(|(host, name)| LocalSite {
                            host: host.to_string(),
                            name: name.to_string(),
                        })
                        .collect(),
                    row.capital.to_string(),
                ),
                // A country outside the table still gets local-looking sites on its own TLD.
                (None, Some(code)) => {
                    let tld = code.to_ascii_lowercase();
                    (
                        format!("country {code}"),
                        "$".to_string(),
                        false,
                        1.0,
                        tld.clone(),
                        vec![
                            LocalSite {
                                host: format!("www.news.{tld}"),
                                name: format!("News {code}"),
                            },
                            LocalSite {
                                host: format!("www.shop.{tld}"),
                                name: format!("Shop {code}"),
                            },
                        ],
                        "the capital".to_string(),
                    )
                }
                (None, None) => (
                    String::new(),
                    "$".to_string(),
                    false,
                    1.0,
                    "com".to_string(),
                    Vec::new(),
                    String::new(),
                ),
            };
        Place {
            country_code: code,
            country_name,
            subdivision: subdivision.map(|s| s.to_ascii_uppercase()),
            city: city.map(str::to_string),
            currency_symbol,
            symbol_after,
            per_usd,
            tld,
            country_sites,
            capital,
        }
    }

    pub(crate) fn is_set(&self) -> bool {
        self.country_code.is_some()
    }

    /// "Munich, Germany", "Germany (BY)", or "" when no location was asked for.
    pub(crate) fn label(&self) -> String {
        match (&self.city, &self.subdivision) {
            (Some(city), _) => format!("{city}, {}", self.country_name),
            (None, Some(sub)) => format!("{} ({sub})", self.country_name),
            (None, None) => self.country_name.clone(),
        }
    }

    /// The city asked for, or the country's main city, for sentences about local shops.
    pub(crate) fn town(&self) -> String {
        self.city.clone().unwrap_or_else(|| self.capital.clone())
    }

    pub(crate) fn country_sites(&self) -> &[LocalSite] {
        &self.country_sites
    }

    /// A shop or guide named after the city, on the country's TLD: only seen from that city.
    pub(crate) fn city_site(&self, category: &Category) -> Option<LocalSite> {
        let city = self.city.as_ref()?;
        Some(LocalSite {
            host: format!("www.{}-{}.{}", slugify(city), category.local_word, self.tld),
            name: format!("{} {}", city, title_case(category.local_word)),
        })
    }

    /// A US dollar amount in local currency, rounded the way shops round.
    pub(crate) fn price(&self, usd: u32) -> String {
        let amount = f64::from(usd) * self.per_usd;
        let step = if amount >= 5000.0 {
            100.0
        } else if amount >= 500.0 {
            10.0
        } else {
            1.0
        };
        let rounded = ((amount / step).round() * step) as u64;
        let digits = group_thousands(rounded);
        if self.symbol_after {
            format!("{digits} {}", self.currency_symbol)
        } else {
            format!("{}{digits}", self.currency_symbol)
        }
    }
}

fn group_thousands(value: u64) -> String {
    let plain = value.to_string();
    let mut grouped = String::new();
    for (i, c) in plain.chars().enumerate() {
        if i > 0 && (plain.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_and_labels_follow_the_country() {
        let berlin = Place::new(Some("de"), None, Some("Berlin"));
        assert_eq!(berlin.price(100), "92 €");
        assert_eq!(berlin.label(), "Berlin, Germany");
        let tokyo = Place::new(Some("JP"), Some("13"), None);
        assert_eq!(tokyo.price(150), "¥22,500");
        assert_eq!(tokyo.label(), "Japan (13)");
        let nowhere = Place::new(None, None, None);
        assert!(!nowhere.is_set());
        assert_eq!(nowhere.price(20), "$20");
        let elsewhere = Place::new(Some("pt"), None, None);
        assert!(elsewhere.country_sites()[0].host.ends_with(".pt"));
    }
}
