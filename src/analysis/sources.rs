//! What kind of site a cited source is: the brand's own, a competitor's, an editorial review,
//! user-generated (forums, videos, Q&A), a retailer, a reference work, or other. The kinds of
//! well-known sites ship in [`KNOWN`]; the workspace file adds to them (`[sources]`), and its
//! brands make the own and competitor kinds.

use serde::Serialize;

use super::mentions::{Brand, on_domain};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    Own,
    Competitor,
    Editorial,
    UserGenerated,
    Retailer,
    Reference,
    Other,
}

impl SourceKind {
    pub const ALL: [SourceKind; 7] = [
        SourceKind::Own,
        SourceKind::Competitor,
        SourceKind::Editorial,
        SourceKind::UserGenerated,
        SourceKind::Retailer,
        SourceKind::Reference,
        SourceKind::Other,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SourceKind::Own => "own",
            SourceKind::Competitor => "competitor",
            SourceKind::Editorial => "editorial",
            SourceKind::UserGenerated => "user-generated",
            SourceKind::Retailer => "retailer",
            SourceKind::Reference => "reference",
            SourceKind::Other => "other",
        }
    }

    /// The kind a workspace file names (`editorial`, `ugc`, `user-generated`…).
    pub fn parse(text: &str) -> Option<SourceKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "editorial" | "review" | "media" => Some(SourceKind::Editorial),
            "user-generated" | "ugc" | "forum" | "video" => Some(SourceKind::UserGenerated),
            "retailer" | "shop" | "store" => Some(SourceKind::Retailer),
            "reference" => Some(SourceKind::Reference),
            "other" => Some(SourceKind::Other),
            _ => None,
        }
    }
}

/// Well-known sites and their kind (a sub-domain takes its domain's kind).
pub const KNOWN: &[(&str, SourceKind)] = &[
    // User-generated: forums, videos, questions and answers, social networks.
    ("reddit.com", SourceKind::UserGenerated),
    ("youtube.com", SourceKind::UserGenerated),
    ("youtu.be", SourceKind::UserGenerated),
    ("quora.com", SourceKind::UserGenerated),
    ("stackexchange.com", SourceKind::UserGenerated),
    ("stackoverflow.com", SourceKind::UserGenerated),
    ("tiktok.com", SourceKind::UserGenerated),
    ("instagram.com", SourceKind::UserGenerated),
    ("facebook.com", SourceKind::UserGenerated),
    ("x.com", SourceKind::UserGenerated),
    ("twitter.com", SourceKind::UserGenerated),
    ("medium.com", SourceKind::UserGenerated),
    ("trustpilot.com", SourceKind::UserGenerated),
    ("tripadvisor.com", SourceKind::UserGenerated),
    ("backpackinglight.com", SourceKind::UserGenerated),
    // Reference works.
    ("wikipedia.org", SourceKind::Reference),
    ("britannica.com", SourceKind::Reference),
    ("merriam-webster.com", SourceKind::Reference),
    ("investopedia.com", SourceKind::Reference),
    ("nih.gov", SourceKind::Reference),
    ("who.int", SourceKind::Reference),
    // Retailers.
    ("amazon.com", SourceKind::Retailer),
    ("amazon.de", SourceKind::Retailer),
    ("amazon.co.uk", SourceKind::Retailer),
    ("amazon.co.jp", SourceKind::Retailer),
    ("rei.com", SourceKind::Retailer),
    ("bestbuy.com", SourceKind::Retailer),
    ("walmart.com", SourceKind::Retailer),
    ("target.com", SourceKind::Retailer),
    ("ebay.com", SourceKind::Retailer),
    ("zappos.com", SourceKind::Retailer),
    ("backcountry.com", SourceKind::Retailer),
    ("moosejaw.com", SourceKind::Retailer),
    ("bergfreunde.de", SourceKind::Retailer),
    ("globetrotter.de", SourceKind::Retailer),
    ("idealo.de", SourceKind::Retailer),
    ("otto.de", SourceKind::Retailer),
    ("decathlon.com", SourceKind::Retailer),
    ("rakuten.co.jp", SourceKind::Retailer),
    ("costco.com", SourceKind::Retailer),
    ("homedepot.com", SourceKind::Retailer),
    // Editorial: reviews, guides, news.
    ("nytimes.com", SourceKind::Editorial),
    ("outdoorgearlab.com", SourceKind::Editorial),
    ("switchbacktravel.com", SourceKind::Editorial),
    ("treelinereview.com", SourceKind::Editorial),
    ("runnersworld.com", SourceKind::Editorial),
    ("backpacker.com", SourceKind::Editorial),
    ("usatoday.com", SourceKind::Editorial),
    ("theverge.com", SourceKind::Editorial),
    ("wired.com", SourceKind::Editorial),
    ("cnet.com", SourceKind::Editorial),
    ("techradar.com", SourceKind::Editorial),
    ("tomsguide.com", SourceKind::Editorial),
    ("rtings.com", SourceKind::Editorial),
    ("consumerreports.org", SourceKind::Editorial),
    ("forbes.com", SourceKind::Editorial),
    ("bbc.com", SourceKind::Editorial),
    ("bbc.co.uk", SourceKind::Editorial),
    ("theguardian.com", SourceKind::Editorial),
    ("outsideonline.com", SourceKind::Editorial),
    ("gearjunkie.com", SourceKind::Editorial),
    ("cleverhiker.com", SourceKind::Editorial),
    ("spiegel.de", SourceKind::Editorial),
    ("stiftung-warentest.de", SourceKind::Editorial),
    ("chip.de", SourceKind::Editorial),
];

/// Publishers, testing bodies and review sites that answers name as where a verdict comes
/// from, not as a brand they put forward ("Stiftung Warentest rated it good"), beyond the
/// sites of [`KNOWN`].
pub const PUBLISHERS: &[&str] = &[
    "Stiftung Warentest",
    "Öko-Test",
    "Oekotest",
    "Consumer Reports",
    "Which?",
    "Which",
    "Wirecutter",
    "OutdoorGearLab",
    "Switchback Travel",
    "Treeline Review",
    "Runner's World",
    "Backpacker",
    "RTINGS",
    "Good Housekeeping",
    "CNET",
    "PCMag",
    "TechRadar",
    "Tom's Guide",
    "Tom's Hardware",
    "The Verge",
    "Wired",
    "Engadget",
    "Ars Technica",
    "Gartner",
    "Forrester",
    "G2",
    "Capterra",
    "Trustpilot",
    "Wikipedia",
    "Reddit",
    "YouTube",
    "Quora",
    "Stack Overflow",
    "Medium",
    "Forbes",
    "The New York Times",
    "New York Times",
    "The Guardian",
    "BBC",
    "Choice",
    "Que Choisir",
    "UFC-Que Choisir",
    "60 Millions de consommateurs",
    "OCU",
    "Altroconsumo",
    "Consumentenbond",
    "Kassensturz",
    "K-Tipp",
    "Konsument",
    "Test Achats",
    "Chip",
    "Computer Bild",
    "Heise",
    "c't",
];

/// Whether `name` is a source rather than a brand: a publisher or testing body of
/// [`PUBLISHERS`], or the name of a known editorial, reference, user-generated or retail site
/// ("Wikipedia", "Stiftung Warentest" for stiftung-warentest.de, "REI" for rei.com).
pub fn is_source_name(name: &str) -> bool {
    let squeeze = |text: &str| -> String {
        super::mentions::fold_term(text)
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect()
    };
    let name = squeeze(name);
    if name.is_empty() {
        return false;
    }
    PUBLISHERS.iter().any(|p| squeeze(p) == name)
        || KNOWN.iter().any(|(domain, kind)| {
            *kind != SourceKind::Other
                && squeeze(domain.split('.').next().unwrap_or_default()) == name
        })
}

/// Classifies cited domains for one workspace: its own brand, the other tracked brands (the
/// competitors), the kinds it adds, then [`KNOWN`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Classifier {
    own: Vec<String>,
    competitors: Vec<String>,
    added: Vec<(String, SourceKind)>,
}

impl Classifier {
    /// `brands` are the tracked brands; `own` names the one that is the user's (`own = true`
    /// in the workspace file), if any; `added` are the workspace's own kinds of sites.
    pub fn new(
        brands: &[Brand],
        own: Option<&str>,
        added: Vec<(String, SourceKind)>,
    ) -> Classifier {
        let mut classifier = Classifier {
            added,
            ..Classifier::default()
        };
        for brand in brands {
            let is_own = own.is_some_and(|o| o.eq_ignore_ascii_case(&brand.name));
            let list = if is_own {
                &mut classifier.own
            } else {
                &mut classifier.competitors
            };
            list.extend(brand.domains.iter().cloned());
        }
        classifier
    }

    /// The kind of a cited URL or domain.
    pub fn kind_of(&self, url_or_domain: &str) -> SourceKind {
        if self.own.iter().any(|d| on_domain(url_or_domain, d)) {
            return SourceKind::Own;
        }
        if self.competitors.iter().any(|d| on_domain(url_or_domain, d)) {
            return SourceKind::Competitor;
        }
        if let Some((_, kind)) = self.added.iter().find(|(d, _)| on_domain(url_or_domain, d)) {
            return *kind;
        }
        KNOWN
            .iter()
            .find(|(d, _)| on_domain(url_or_domain, d))
            .map_or(SourceKind::Other, |(_, kind)| *kind)
    }
}

/// Citations counted by kind, for one group of answers (a model, a place).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KindCounts {
    pub group: String,
    /// Citations of each kind, in the order of [`SourceKind::ALL`].
    pub counts: Vec<(SourceKind, usize)>,
    pub total: usize,
}

impl KindCounts {
    pub fn of(group: &str, domains: &[&str], classifier: &Classifier) -> KindCounts {
        let mut counts: Vec<(SourceKind, usize)> =
            SourceKind::ALL.iter().map(|k| (*k, 0)).collect();
        for domain in domains {
            let kind = classifier.kind_of(domain);
            if let Some(slot) = counts.iter_mut().find(|(k, _)| *k == kind) {
                slot.1 += 1;
            }
        }
        KindCounts {
            group: group.to_string(),
            total: domains.len(),
            counts,
        }
    }

    /// The kinds per model and per place ("model ChatGPT", "place US/–/Denver"), each group
    /// over every citation of its answers: models first, then places, each in the order
    /// they first appear. `answers` gives each answer's model, place and cited domains.
    pub fn by_model_and_place<'a>(
        answers: impl IntoIterator<Item = (&'a str, &'a str, &'a [String])>,
        classifier: &Classifier,
    ) -> Vec<KindCounts> {
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for (model, place, domains) in answers {
            for group in [format!("model {model}"), format!("place {place}")] {
                let at = match groups.iter().position(|(g, _)| *g == group) {
                    Some(at) => at,
                    None => {
                        groups.push((group, Vec::new()));
                        groups.len() - 1
                    }
                };
                groups[at].1.extend(domains.iter().map(String::as_str));
            }
        }
        groups.sort_by_key(|(g, _)| !g.starts_with("model "));
        groups
            .iter()
            .map(|(group, domains)| KindCounts::of(group, domains, classifier))
            .collect()
    }

    /// Each group's name padded to the longest, and its [`KindCounts::text`]: the rows of a
    /// table of groups.
    pub fn aligned(groups: &[KindCounts]) -> Vec<(String, String)> {
        let width = groups
            .iter()
            .map(|g| g.group.chars().count())
            .max()
            .unwrap_or(0);
        groups
            .iter()
            .map(|g| (format!("{:<width$}", g.group), g.text()))
            .collect()
    }

    /// The share of `kind`, 0 to 100.
    pub fn share(&self, kind: SourceKind) -> f64 {
        let count = self
            .counts
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| *n);
        if self.total == 0 {
            0.0
        } else {
            count as f64 * 100.0 / self.total as f64
        }
    }

    /// "editorial 50% · user-generated 25% · retailer 25%": the kinds cited, largest first.
    pub fn text(&self) -> String {
        let mut kinds: Vec<(SourceKind, usize)> = self
            .counts
            .iter()
            .copied()
            .filter(|(_, n)| *n > 0)
            .collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        if kinds.is_empty() {
            return "no sources".to_string();
        }
        kinds
            .iter()
            .map(|(kind, _)| format!("{} {:.0}%", kind.label(), self.share(*kind)))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_competitor_added_and_known_kinds_in_that_order() {
        let brands = [
            Brand {
                name: "Lowa".into(),
                domains: vec!["lowa.com".into()],
                ..Brand::default()
            },
            Brand {
                name: "Salomon".into(),
                domains: vec!["salomon.com".into()],
                ..Brand::default()
            },
        ];
        let classifier = Classifier::new(
            &brands,
            Some("lowa"),
            vec![("trailblog.example".into(), SourceKind::Editorial)],
        );
        assert_eq!(
            classifier.kind_of("https://www.lowa.com/boots"),
            SourceKind::Own
        );
        assert_eq!(
            classifier.kind_of("shop.salomon.com"),
            SourceKind::Competitor
        );
        assert_eq!(
            classifier.kind_of("https://trailblog.example/x"),
            SourceKind::Editorial
        );
        assert_eq!(
            classifier.kind_of("https://old.reddit.com/r/hiking"),
            SourceKind::UserGenerated
        );
        assert_eq!(
            classifier.kind_of("en.wikipedia.org"),
            SourceKind::Reference
        );
        assert_eq!(classifier.kind_of("www.rei.com"), SourceKind::Retailer);
        assert_eq!(classifier.kind_of("unknown.example"), SourceKind::Other);
        assert_eq!(SourceKind::parse("UGC"), Some(SourceKind::UserGenerated));
        assert_eq!(SourceKind::parse("own"), None);
    }

    #[test]
    fn shares_are_of_every_citation_of_the_group() {
        let classifier = Classifier::default();
        let counts = KindCounts::of(
            "chatgpt",
            &["reddit.com", "nytimes.com", "outdoorgearlab.com", "rei.com"],
            &classifier,
        );
        assert_eq!(counts.total, 4);
        assert_eq!(counts.share(SourceKind::Editorial), 50.0);
        assert_eq!(
            counts.text(),
            "editorial 50% · user-generated 25% · retailer 25%"
        );
    }
}
