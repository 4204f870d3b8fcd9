//! The topic vocabulary: what a prompt or search is about, and which sites write about it.
//! Answers and results are assembled from this, so "best hiking boots" talks about fit and
//! waterproofing and cites outdoor shops, while "what is mcp" talks about setup and cites docs.

use super::products::{Field, field_of};
use super::seed::Mix;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    pub host: &'static str,
    pub name: &'static str,
    /// First path segment of article URLs on this site.
    pub section: &'static str,
}

const fn site(host: &'static str, name: &'static str, section: &'static str) -> Site {
    Site {
        host,
        name,
        section,
    }
}

#[derive(Debug)]
pub(crate) struct Category {
    pub key: &'static str,
    triggers: &'static [&'static str],
    pub sites: &'static [Site],
    pub aspects: &'static [&'static str],
    pub picks: &'static [&'static str],
    /// Typical price span in US dollars, converted to local currency in answers.
    pub price_usd: (u32, u32),
    /// Word used to name city-local shops and guides ("munich-outdoor.de").
    pub local_word: &'static str,
    pub technical: bool,
}

static OUTDOOR: Category = Category {
    key: "outdoor",
    triggers: &[
        "hiking", "boot", "boots", "trail", "camping", "tent", "backpack", "jacket", "running",
        "shoe", "shoes", "climbing", "ski", "bike", "cycling", "outdoor", "sneakers",
    ],
    sites: &[
        site("www.rei.com", "REI", "learn"),
        site("www.outdoorgearlab.com", "OutdoorGearLab", "topics"),
        site("www.switchbacktravel.com", "Switchback Travel", "info"),
        site("www.backpacker.com", "Backpacker", "gear"),
        site("www.nytimes.com", "Wirecutter", "wirecutter/reviews"),
        site("www.runnersworld.com", "Runner's World", "gear"),
        site("www.treelinereview.com", "Treeline Review", "gearreviews"),
        site("www.reddit.com", "Reddit", "r/Hiking/comments"),
    ],
    aspects: &[
        "fit and sizing",
        "waterproofing",
        "weight",
        "grip and outsole",
        "breathability",
        "durability",
        "break-in time",
        "ankle support",
    ],
    picks: &[
        "Salomon X Ultra 4 GTX",
        "Merrell Moab 3 Mid",
        "La Sportiva Nucleo High II",
        "Lowa Renegade GTX",
        "Hoka Kaha 2",
        "Keen Targhee IV",
        "Scarpa Rush Trek",
    ],
    price_usd: (110, 260),
    local_word: "outdoor",
    technical: false,
};

static TECH: Category = Category {
    key: "tech",
    triggers: &[
        "mcp",
        "server",
        "api",
        "rust",
        "python",
        "code",
        "software",
        "laptop",
        "phone",
        "app",
        "database",
        "sql",
        "linux",
        "docker",
        "kubernetes",
        "ai",
        "llm",
        "protocol",
        "cloud",
        "javascript",
        "programming",
        "computer",
        "gpu",
        "router",
        "wifi",
    ],
    sites: &[
        site("github.com", "GitHub", "topics"),
        site("stackoverflow.com", "Stack Overflow", "questions"),
        site("developer.mozilla.org", "MDN Web Docs", "en-US/docs"),
        site("en.wikipedia.org", "Wikipedia", "wiki"),
        site("www.theverge.com", "The Verge", "tech"),
        site("arstechnica.com", "Ars Technica", "information-technology"),
        site("www.cloudflare.com", "Cloudflare", "learning"),
        site("medium.com", "Medium", "@engineering"),
    ],
    aspects: &[
        "setup",
        "performance",
        "security",
        "compatibility",
        "documentation",
        "community support",
        "pricing",
        "scalability",
    ],
    picks: &[
        "the official SDK",
        "a reference implementation",
        "a managed cloud service",
        "an open-source alternative",
        "a lightweight self-hosted setup",
        "the vendor's starter template",
    ],
    price_usd: (0, 49),
    local_word: "tech",
    technical: true,
};

static FOOD: Category = Category {
    key: "food",
    triggers: &[
        "recipe",
        "restaurant",
        "coffee",
        "pizza",
        "food",
        "cook",
        "cooking",
        "bake",
        "bread",
        "wine",
        "beer",
        "vegan",
        "dinner",
        "lunch",
        "breakfast",
        "pasta",
        "sushi",
        "cafe",
    ],
    sites: &[
        site("www.seriouseats.com", "Serious Eats", "recipes"),
        site("www.allrecipes.com", "Allrecipes", "recipe"),
        site("www.bonappetit.com", "Bon Appétit", "story"),
        site("www.bbcgoodfood.com", "BBC Good Food", "howto"),
        site("cooking.nytimes.com", "NYT Cooking", "guides"),
        site("www.eater.com", "Eater", "maps"),
        site("www.reddit.com", "Reddit", "r/Cooking/comments"),
    ],
    aspects: &[
        "freshness",
        "flavour",
        "price per portion",
        "preparation time",
        "ingredients",
        "atmosphere",
    ],
    picks: &[
        "a neighbourhood favourite with a short seasonal menu",
        "the classic version with good olive oil",
        "a quick weeknight variation",
        "the slow-cooked weekend version",
        "a well-reviewed local spot near the centre",
    ],
    price_usd: (12, 45),
    local_word: "eats",
    technical: false,
};

static TRAVEL: Category = Category {
    key: "travel",
    triggers: &[
        "hotel", "hotels", "flight", "flights", "travel", "visit", "trip", "vacation", "holiday",
        "beach", "museum", "things", "weekend", "airport", "train",
    ],
    sites: &[
        site("www.tripadvisor.com", "Tripadvisor", "Attractions"),
        site("www.lonelyplanet.com", "Lonely Planet", "articles"),
        site("www.booking.com", "Booking.com", "guides"),
        site("www.timeout.com", "Time Out", "things-to-do"),
        site("www.cntraveler.com", "Condé Nast Traveler", "gallery"),
        site("www.reddit.com", "Reddit", "r/travel/comments"),
    ],
    aspects: &[
        "location",
        "price per night",
        "transport links",
        "recent reviews",
        "cancellation policy",
        "best season",
    ],
    picks: &[
        "a central boutique hotel",
        "a well-rated budget option near the station",
        "an apartment rental for longer stays",
        "a quieter neighbourhood with good transit",
        "a guided day trip",
    ],
    price_usd: (90, 320),
    local_word: "guide",
    technical: false,
};

static FINANCE: Category = Category {
    key: "finance",
    triggers: &[
        "bank",
        "credit",
        "loan",
        "invest",
        "investing",
        "mortgage",
        "savings",
        "stock",
        "stocks",
        "etf",
        "insurance",
        "tax",
        "taxes",
        "budget",
        "card",
        "crypto",
        "pension",
    ],
    sites: &[
        site("www.investopedia.com", "Investopedia", "terms"),
        site("www.nerdwallet.com", "NerdWallet", "article"),
        site("www.bankrate.com", "Bankrate", "banking"),
        site("www.forbes.com", "Forbes", "advisor"),
        site("www.morningstar.com", "Morningstar", "personal-finance"),
        site("www.reddit.com", "Reddit", "r/personalfinance/comments"),
    ],
    aspects: &[
        "fees",
        "interest rate",
        "flexibility",
        "customer service",
        "regulation",
        "app quality",
    ],
    picks: &[
        "a low-fee online provider",
        "a traditional high-street bank",
        "a broad index fund",
        "a fixed-rate product",
        "a credit union",
    ],
    price_usd: (0, 15),
    local_word: "finanz",
    technical: false,
};

static HEALTH: Category = Category {
    key: "health",
    triggers: &[
        "sleep", "diet", "vitamin", "health", "exercise", "workout", "pain", "headache", "weight",
        "protein", "yoga", "stress", "fitness", "symptoms", "skin",
    ],
    sites: &[
        site("www.mayoclinic.org", "Mayo Clinic", "healthy-lifestyle"),
        site("www.ncbi.nlm.nih.gov", "NIH", "pmc/articles"),
        site("www.healthline.com", "Healthline", "nutrition"),
        site("www.webmd.com", "WebMD", "a-to-z-guides"),
        site("my.clevelandclinic.org", "Cleveland Clinic", "health"),
        site("www.nhs.uk", "NHS", "live-well"),
    ],
    aspects: &[
        "evidence",
        "dosage",
        "side effects",
        "cost",
        "consistency",
        "professional advice",
    ],
    picks: &[
        "a simple daily routine",
        "a gradual approach over several weeks",
        "a check-up with your doctor first",
        "a tracked two-week experiment",
    ],
    price_usd: (10, 60),
    local_word: "health",
    technical: false,
};

static GENERAL: Category = Category {
    key: "general",
    triggers: &[],
    sites: &[
        site("en.wikipedia.org", "Wikipedia", "wiki"),
        site("www.reddit.com", "Reddit", "r/NoStupidQuestions/comments"),
        site("www.nytimes.com", "The New York Times", "article"),
        site(
            "www.consumerreports.org",
            "Consumer Reports",
            "buying-guides",
        ),
        site("www.youtube.com", "YouTube", "watch"),
        site("www.quora.com", "Quora", "What-is"),
        site("www.forbes.com", "Forbes", "sites"),
    ],
    aspects: &[
        "quality",
        "price",
        "reviews",
        "availability",
        "warranty",
        "ease of use",
    ],
    picks: &[
        "the most reviewed option",
        "a budget pick",
        "the premium choice",
        "a solid all-rounder",
        "a second-hand bargain",
    ],
    price_usd: (20, 200),
    local_word: "info",
    technical: false,
};

static CATEGORIES: [&Category; 6] = [&OUTDOOR, &TECH, &FOOD, &TRAVEL, &FINANCE, &HEALTH];

/// Sites any search can rank, whatever the topic.
pub(crate) static GENERAL_SITES: &[Site] = GENERAL.sites;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Intent {
    Buying,
    Explainer,
    Comparison,
    HowTo,
}

#[derive(Clone, Debug)]
pub(crate) struct Topic {
    /// Lower-case subject, e.g. "hiking boots".
    pub subject: String,
    pub intent: Intent,
    pub category: &'static Category,
    /// URL path segment for the subject, e.g. "best-hiking-boots".
    pub slug: String,
    /// The product field the text names, whose products an answer puts forward.
    pub field: Option<&'static Field>,
    /// The number of items the text asks a list for ("list 5 …").
    pub count: Option<usize>,
}

const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "is",
    "are",
    "what",
    "whats",
    "which",
    "who",
    "how",
    "why",
    "to",
    "for",
    "of",
    "in",
    "on",
    "and",
    "or",
    "do",
    "does",
    "i",
    "me",
    "my",
    "should",
    "can",
    "you",
    "your",
    "best",
    "top",
    "good",
    "great",
    "recommend",
    "recommended",
    "buy",
    "vs",
    "versus",
    "compare",
    "with",
    "near",
    "about",
    "tell",
    "explain",
    "please",
    "it",
    "be",
    "get",
    "make",
    "cheap",
    "cheapest",
    "2024",
    "2025",
    "at",
    "from",
    "by",
    "this",
    "that",
    "way",
    "ways",
    "guide",
    // What a prompt asks of the answer's form, not what it is about.
    "list",
    "json",
    "reply",
    "respond",
    "return",
    "only",
    "give",
    "right",
    "now",
];

/// The most items a prompt can ask a list for.
const MOST_ITEMS: usize = 20;

/// "5", "five": a number of items a list could hold.
fn item_number(word: &str) -> Option<usize> {
    const NAMES: [&str; 20] = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let n = match word.parse::<usize>() {
        Ok(n) => n,
        Err(_) => NAMES.iter().position(|name| *name == word)? + 1,
    };
    (1..=MOST_ITEMS).contains(&n).then_some(n)
}

/// The number of items the words ask for ("list 5 …", "top 7 …", "give me 3 …", "five best
/// …") and where it stands: a number right after "list", "top", "me"…, or right before
/// "best", "top"….
fn count_asked(words: &[String]) -> Option<(usize, usize)> {
    words.iter().enumerate().find_map(|(i, word)| {
        let n = item_number(word)?;
        let before = i
            .checked_sub(1)
            .and_then(|b| words.get(b))
            .map(String::as_str);
        let after = words.get(i + 1).map(String::as_str);
        let asks = matches!(
            before,
            Some("list" | "top" | "me" | "name" | "suggest" | "recommend" | "share" | "the")
        ) || matches!(
            after,
            Some("best" | "top" | "most" | "good" | "great" | "popular" | "options" | "ideas")
        );
        asks.then_some((i, n))
    })
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

pub(crate) fn topic_of(text: &str) -> Topic {
    let all = words(text);
    let has = |w: &str| all.iter().any(|x| x == w);
    let intent = if has("vs") || has("versus") || has("compare") || has("difference") {
        Intent::Comparison
    } else if has("best") || has("top") || has("buy") || has("recommend") || has("cheap") {
        Intent::Buying
    } else if has("how") {
        Intent::HowTo
    } else {
        Intent::Explainer
    };
    let count = count_asked(&all);
    let keywords: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, w)| !STOP_WORDS.contains(&w.as_str()) && count.is_none_or(|(at, _)| at != *i))
        .map(|(_, w)| w)
        .take(6)
        .cloned()
        .collect();
    let subject = if keywords.is_empty() {
        let trimmed: String = text.trim().chars().take(60).collect();
        if trimmed.is_empty() {
            "this".to_string()
        } else {
            trimmed.to_lowercase()
        }
    } else {
        keywords.join(" ")
    };
    let category = CATEGORIES
        .iter()
        .copied()
        .find(|category| {
            keywords.iter().any(|k| {
                // Prefix matches only for longer triggers, so "ai" does not claim "airport".
                category
                    .triggers
                    .iter()
                    .any(|t| k == t || (t.len() >= 4 && k.starts_with(t)))
            })
        })
        .unwrap_or(&GENERAL);
    let mut slug = slugify(&subject);
    if intent == Intent::Buying {
        slug = format!("best-{slug}");
    }
    Topic {
        subject,
        intent,
        category,
        slug,
        field: field_of(text),
        count: count.map(|(_, n)| n),
    }
}

impl Topic {
    pub(crate) fn title(&self) -> String {
        title_case(&self.subject)
    }

    /// Aspects in an order that depends on the seed, so models stress different things.
    pub(crate) fn aspects(&self, mix: &mut Mix, count: usize) -> Vec<&'static str> {
        let aspects = self.category.aspects;
        mix.sample_indices(aspects.len(), count)
            .into_iter()
            .map(|i| aspects[i])
            .collect()
    }

    /// The maker of a pick named by brand ("Salomon X Ultra 4" → Salomon, "La Sportiva
    /// Nucleo" → La Sportiva); none for a pick that is not a product ("the official SDK").
    pub(crate) fn brand_of(&self, pick: &str) -> Option<String> {
        if let Some(brand) = self.field.and_then(|field| field.brand_of(pick)) {
            return Some(brand.to_string());
        }
        if !pick.starts_with(|c: char| c.is_uppercase()) {
            return None;
        }
        let words: Vec<&str> = pick.split_whitespace().collect();
        let take = if words.first().is_some_and(|w| w.len() <= 3) {
            2
        } else {
            1
        };
        Some(words[..take.min(words.len())].join(" "))
    }

    /// The makers of the category's products (picks named by brand, "Salomon X Ultra 4"),
    /// each with its own site: "La Sportiva" → www.lasportiva.com.
    pub(crate) fn brand_sites(&self) -> Vec<(String, String)> {
        let mut brands: Vec<(String, String)> = Vec::new();
        for pick in self.category.picks {
            let Some(name) = self.brand_of(pick) else {
                continue;
            };
            let host: String = name
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase();
            if !brands.iter().any(|(n, _)| *n == name) {
                brands.push((name, format!("www.{host}.com")));
            }
        }
        brands
    }

    /// What an answer can put forward: the products of the field the text names, else the
    /// category's picks.
    pub(crate) fn pick_names(&self) -> Vec<&'static str> {
        match self.field {
            Some(field) => field.products.iter().map(|(_, name)| *name).collect(),
            None => self.category.picks.to_vec(),
        }
    }

    pub(crate) fn picks(&self, mix: &mut Mix, count: usize) -> Vec<&'static str> {
        let picks = self.pick_names();
        mix.sample_indices(picks.len(), count)
            .into_iter()
            .map(|i| picks[i])
            .collect()
    }

    /// `count` picks for one of several fresh asks of a prompt. Each pick has a weight of its
    /// own for this content (model, place and prompt: `steady` is the content's key), spread
    /// from about 1/50 to 50, and the picks are drawn by weight without replacement: a few
    /// are named in nearly every answer, a few in nearly none, and the rest rotate, in an
    /// order that favours the heavier — as measurements of live chatbots find, the same list
    /// seldom comes twice and the same order almost never.
    pub(crate) fn picks_sampled(
        &self,
        steady: u64,
        mix: &mut Mix,
        count: usize,
    ) -> Vec<&'static str> {
        let picks = self.pick_names();
        let count = count.min(picks.len());
        let seed = steady.to_string();
        // Some contents answer steadily (their weights far apart: the same brands nearly
        // every time), the others rotate (weights close: brands come and go).
        let spread = match Mix::of(&[&seed, "spread"]).unit() < 0.5 {
            true => 10.0,
            false => 5.0,
        };
        // A weighted sample without replacement: each pick's key is u^(1/w), highest first.
        let mut keys: Vec<(f64, usize)> = picks
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let weight = (spread * (Mix::of(&[&seed, name]).unit() - 0.5)).exp();
                (mix.unit().max(f64::MIN_POSITIVE).powf(1.0 / weight), i)
            })
            .collect();
        keys.sort_by(|a, b| b.0.total_cmp(&a.0));
        keys.into_iter()
            .take(count)
            .map(|(_, i)| picks[i])
            .collect()
    }

    /// A headline for an article about the subject on a site.
    pub(crate) fn article_title(&self, site_name: &str, variant: usize) -> String {
        let subject = self.title();
        let core = match (self.intent, variant % 3) {
            (Intent::Buying, 0) => format!("The Best {subject} of 2025, Tested and Reviewed"),
            (Intent::Buying, 1) => format!("{subject}: Our Top Picks for Every Budget"),
            (Intent::Buying, _) => format!("How to Choose {subject} (Buyer's Guide)"),
            (Intent::Comparison, 0) => format!("{subject}: Which One Should You Pick?"),
            (Intent::Comparison, 1) => format!("{subject} Compared Side by Side"),
            (Intent::Comparison, _) => format!("{subject}: Key Differences Explained"),
            (Intent::HowTo, 0) => format!("How to {subject}: A Step-by-Step Guide"),
            (Intent::HowTo, 1) => format!("{subject}: Tips That Actually Work"),
            (Intent::HowTo, _) => format!("A Beginner's Guide to {subject}"),
            (Intent::Explainer, 0) => format!("What Is {subject}? Everything You Need to Know"),
            (Intent::Explainer, 1) => format!("{subject} Explained"),
            (Intent::Explainer, _) => format!("{subject}: Definition, Uses and Examples"),
        };
        format!("{core} | {site_name}")
    }
}

pub(crate) fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        slug.push_str("topic");
    }
    slug
}

pub(crate) fn title_case(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fresh picks vary as live answers do: lists seldom repeat, and each content has brands
    /// named nearly always, nearly never, and in between.
    #[test]
    fn fresh_picks_follow_a_weight_of_each_brand_per_content() {
        let boots = topic_of("best hiking boots");
        let mut shares: Vec<f64> = Vec::new();
        let mut varied = 0;
        for content in 0..12u64 {
            let mut lists = std::collections::BTreeSet::new();
            let mut named: std::collections::BTreeMap<&str, usize> = Default::default();
            for n in 0..40u64 {
                let mut mix = Mix::new(content * 1_000 + n);
                let picks = boots.picks_sampled(content, &mut mix, 4);
                assert_eq!(picks.len(), 4);
                for pick in &picks {
                    *named.entry(*pick).or_default() += 1;
                }
                if n < 10 {
                    lists.insert(picks);
                }
            }
            varied += usize::from(lists.len() >= 3);
            for pick in boots.pick_names() {
                shares.push(named.get(pick).copied().unwrap_or(0) as f64 / 40.0);
            }
        }
        assert!(
            varied >= 8,
            "ten fresh answers of most cells vary: {varied} of 12"
        );
        let nearly_always = shares.iter().filter(|s| **s >= 0.9).count();
        let nearly_never = shares.iter().filter(|s| **s <= 0.1).count();
        let between = shares.iter().filter(|s| (0.25..=0.75).contains(*s)).count();
        assert!(
            nearly_always > 5 && nearly_never > 5 && between > 5,
            "{shares:?}"
        );
    }

    #[test]
    fn prompts_find_their_category_and_intent() {
        let boots = topic_of("best hiking boots");
        assert_eq!(boots.category.key, "outdoor");
        assert_eq!(boots.intent, Intent::Buying);
        assert_eq!(boots.subject, "hiking boots");
        assert_eq!(boots.slug, "best-hiking-boots");
        let mcp = topic_of("what is mcp");
        assert_eq!(mcp.category.key, "tech");
        assert_eq!(mcp.intent, Intent::Explainer);
        assert_eq!(topic_of("???").category.key, "general");
        let listed = topic_of("List 5 espresso machines");
        assert_eq!(
            (listed.subject.as_str(), listed.count),
            ("espresso machines", Some(5))
        );
        let top = topic_of("What are the best AI coding tools right now? List the top 10.");
        assert_eq!(
            (top.subject.as_str(), top.count),
            ("ai coding tools", Some(10))
        );
        for (text, count) in [
            ("top 7 CRM tools", Some(7)),
            ("give me 3 ideas for dinner", Some(3)),
            ("five best VPNs", Some(5)),
            ("best laptops under 1000 in 2025", None),
            ("list 500 things", None),
            ("iPhone 15 cases", None),
        ] {
            assert_eq!(topic_of(text).count, count, "{text}");
        }
    }
}
