//! Names the stored answers put forward that no tracked brand covers: the competitor a model
//! recommends most may be one the user never listed. The names are those of part 14's
//! evidence (`analysis::names`), products under their brands (`analysis::products`), from
//! every answer; each is then counted in every answer that names it, read in the answer's
//! shape as tracked brands are (so a name one answer lists beside another counts there too),
//! with the answers that recommend it, the models and places that named it, and one
//! sentence that says it. Sites the answers cite, publishers and testing bodies are sources,
//! not brands, and are left out.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::Serialize;

pub use crate::store::names::AnswersRead;

use crate::analysis::mentions::{self, Brand};
use crate::analysis::outline::Outline;
use crate::analysis::products::{self, Suggested};
use crate::analysis::sources::is_source_name;
use crate::analysis::stance::Stance;

use super::answer::{PreparedAnswer, SourceLink};
use super::compare::summary::location_label;

/// One name nobody tracks, over the answers read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Untracked {
    /// The brand to track: "La Sportiva" for the answers' "La Sportiva Nucleo High II".
    pub name: String,
    /// The products the answers name under it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub products: Vec<String>,
    /// Answers that name it (not only to warn against it, nor to say nothing is known).
    pub answers: usize,
    /// Of those, the answers that recommend it.
    pub recommended: usize,
    pub models: Vec<String>,
    pub places: Vec<String>,
    /// The sentence of the first answer that names it.
    pub sentence: String,
}

/// Stored answers read at most, newest first: a bound on the work whatever is stored.
pub const MAX_STORED_ANSWERS: usize = 2_000;

/// Names counted at most, in order of first appearance: every answer is read for each.
const MAX_NAMES: usize = 300;

/// The untracked names of stored answers (request and body as kept), and how many of them
/// could be read. Slow with many answers: off the UI task.
pub fn untracked_in_stored(
    stored: Vec<(crate::api::AiRequest, String)>,
    tracked: &[Brand],
) -> (Vec<Untracked>, AnswersRead) {
    let answers: Vec<PreparedAnswer> = stored
        .into_iter()
        .filter_map(|(request, body)| super::answer::prepare_to_read(request, &body))
        .collect();
    let read = AnswersRead {
        answers: answers.len(),
        as_text: answers.iter().filter(|a| a.read_as_text).count(),
    };
    (untracked(&answers, tracked), read)
}

/// A name one answer puts forward, read in it: kept in the store for discovery.
#[derive(Clone, Debug, PartialEq)]
pub struct NameInAnswer {
    pub name: String,
    pub products: Vec<String>,
    pub recommended: bool,
    pub sentence: String,
}

/// The names `answer` puts forward (products under their brands, the sites it cites and the
/// publishers left out), each as the answer says it: named (not only warned of, nor said to
/// be unknown), recommended or not, and the sentence that says it. Whatever is tracked:
/// discovery leaves out what tracked brands cover when it counts.
pub fn names_in(answer: &PreparedAnswer) -> Vec<NameInAnswer> {
    let cited = SourceNames::of(std::iter::once(answer));
    let is_source = |name: &str| cited.holds(name);
    let groups = brands_across(std::slice::from_ref(answer), &is_source, &[]);
    let candidates: Vec<Brand> = groups.iter().map(|g| Brand::named(&g.name)).collect();
    answer
        .mentions(&candidates)
        .into_iter()
        .zip(groups)
        .filter(|(m, _)| m.position.is_some() && m.stance != Stance::Cautioned)
        .map(|(m, group)| NameInAnswer {
            name: group.name,
            products: group.products,
            recommended: m.stance == Stance::Recommended,
            sentence: m.sentence.unwrap_or_default(),
        })
        .collect()
}

/// A name over the answers of one model at one place, as kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameCount {
    pub name: String,
    pub model: String,
    pub place: String,
    pub answers: usize,
    pub recommended: usize,
    pub sentence: String,
}

/// The untracked names of kept counts, most named first (then by models, places, name):
/// what tracked brands cover and the sources left out.
pub fn untracked_of(counts: Vec<NameCount>, tracked: &[Brand]) -> Vec<Untracked> {
    // Names of all answers grouped together: a brand one answer names alone takes the
    // products others name under it ("La Sportiva Nucleo High II" is La Sportiva's).
    let mut distinct: Vec<String> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for count in &counts {
        if seen.insert(&count.name) {
            distinct.push(count.name.clone());
        }
    }
    let mut brand_of: HashMap<String, (String, bool)> = HashMap::new();
    for group in products::by_brand(&distinct, "", &HashSet::new()) {
        for product in &group.products {
            brand_of.insert(product.clone(), (group.name.clone(), true));
        }
        brand_of.insert(group.name.clone(), (group.name.clone(), false));
    }
    let mut products_of: HashMap<String, BTreeSet<String>> = HashMap::new();
    let counts: Vec<NameCount> = counts
        .into_iter()
        .map(|mut count| {
            if let Some((brand, true)) = brand_of.get(&count.name) {
                products_of
                    .entry(brand.clone())
                    .or_default()
                    .insert(count.name.clone());
                count.name = brand.clone();
            }
            count
        })
        .collect();
    let mut rows: Vec<(Untracked, BTreeSet<String>, BTreeSet<String>)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut refused: HashSet<String> = HashSet::new();
    for count in counts {
        if refused.contains(&count.name) {
            continue;
        }
        let i = match at.get(&count.name) {
            Some(&i) => i,
            None => {
                if is_source_name(&count.name) || covered(&count.name, tracked) {
                    refused.insert(count.name);
                    continue;
                }
                rows.push((
                    Untracked {
                        name: count.name.clone(),
                        products: Vec::new(),
                        answers: 0,
                        recommended: 0,
                        models: Vec::new(),
                        places: Vec::new(),
                        sentence: String::new(),
                    },
                    BTreeSet::new(),
                    BTreeSet::new(),
                ));
                at.insert(count.name.clone(), rows.len() - 1);
                rows.len() - 1
            }
        };
        let (row, models, places) = &mut rows[i];
        row.answers += count.answers;
        row.recommended += count.recommended;
        if row.sentence.is_empty() {
            row.sentence = count.sentence;
        }
        models.insert(count.model);
        places.insert(count.place);
    }
    let mut out: Vec<Untracked> = rows
        .into_iter()
        .filter(|(row, _, _)| row.answers > 0)
        .map(|(mut row, models, places)| {
            row.models = models.into_iter().collect();
            row.places = places.into_iter().collect();
            row.products = products_of
                .remove(&row.name)
                .unwrap_or_default()
                .into_iter()
                .collect();
            row
        })
        .collect();
    most_named_first(&mut out);
    out
}

/// Most named first, then by models, places, name.
fn most_named_first(names: &mut [Untracked]) {
    names.sort_by(|a, b| {
        b.answers
            .cmp(&a.answers)
            .then(b.models.len().cmp(&a.models.len()))
            .then(b.places.len().cmp(&a.places.len()))
            .then(a.name.cmp(&b.name))
    });
}

/// Whether a tracked brand covers `name`: its name or an alias stands in it as a whole word
/// ("Salomon X Ultra" is Salomon's).
pub fn covered(name: &str, tracked: &[Brand]) -> bool {
    mentions::mentions(name, &[], tracked)
        .iter()
        .any(|m| m.position.is_some())
}

/// The untracked names of `answers`, most named first (then by models, places, name).
pub fn untracked(answers: &[PreparedAnswer], tracked: &[Brand]) -> Vec<Untracked> {
    let cited = SourceNames::of(answers);
    let is_source = |name: &str| cited.holds(name);
    let groups = brands_across(answers, &is_source, tracked);
    let candidates: Vec<Brand> = groups.iter().map(|g| Brand::named(&g.name)).collect();
    let mut rows: Vec<(Untracked, BTreeSet<String>, BTreeSet<String>)> = groups
        .into_iter()
        .map(|group| {
            (
                Untracked {
                    name: group.name,
                    products: group.products,
                    answers: 0,
                    recommended: 0,
                    models: Vec::new(),
                    places: Vec::new(),
                    sentence: String::new(),
                },
                BTreeSet::new(),
                BTreeSet::new(),
            )
        })
        .collect();
    for answer in answers {
        let model = answer.header.model.as_str().to_string();
        let place = location_label(&answer.header.location);
        for (mention, (row, models, places)) in answer.mentions(&candidates).iter().zip(&mut rows) {
            if mention.position.is_none() || mention.stance == Stance::Cautioned {
                continue;
            }
            row.answers += 1;
            if mention.stance == Stance::Recommended {
                row.recommended += 1;
            }
            if row.sentence.is_empty() {
                row.sentence = mention.sentence.clone().unwrap_or_default();
            }
            models.insert(model.clone());
            places.insert(place.clone());
        }
    }
    let mut out: Vec<Untracked> = rows
        .into_iter()
        .filter(|(row, _, _)| row.answers > 0)
        .map(|(mut row, models, places)| {
            row.models = models.into_iter().collect();
            row.places = places.into_iter().collect();
            row
        })
        .collect();
    most_named_first(&mut out);
    out
}

/// Every answer's names, products under their brands: an answer's own grouping first (its
/// text is the evidence), then the names of all answers grouped together (a brand one
/// answer names alone takes another's products). Sources and covered names are left out.
fn brands_across(
    answers: &[PreparedAnswer],
    is_source: &impl Fn(&str) -> bool,
    tracked: &[Brand],
) -> Vec<Suggested> {
    let mut brand_of: HashMap<String, String> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for answer in answers {
        for suggested in &answer.candidates {
            for product in &suggested.products {
                brand_of
                    .entry(product.to_lowercase())
                    .or_insert_with(|| suggested.name.clone());
            }
            for name in std::iter::once(&suggested.name).chain(&suggested.products) {
                if names.len() < MAX_NAMES && !is_source(name) && seen.insert(name.to_lowercase()) {
                    names.push(name.clone());
                }
            }
        }
    }
    // Names without a brand in their own answer may share their first words across answers.
    let regrouped = products::by_brand(&names, "", &HashSet::new());
    let mut groups: Vec<Suggested> = Vec::new();
    for group in regrouped {
        for name in std::iter::once(&group.name).chain(&group.products) {
            let brand = brand_of
                .get(&name.to_lowercase())
                .cloned()
                .unwrap_or_else(|| group.name.clone());
            if is_source(&brand) || covered(&brand, tracked) || covered(name, tracked) {
                continue;
            }
            let product = (!brand.eq_ignore_ascii_case(name)).then(|| name.clone());
            match groups
                .iter_mut()
                .find(|g| g.name.eq_ignore_ascii_case(&brand))
            {
                Some(existing) => {
                    if let Some(product) = product
                        && !existing
                            .products
                            .iter()
                            .any(|p| p.eq_ignore_ascii_case(&product))
                    {
                        existing.products.push(product);
                    }
                }
                None => groups.push(Suggested {
                    name: brand,
                    products: product.into_iter().collect(),
                }),
            }
        }
    }
    groups
}

/// What is a source among the names some answers put forward: the sites they cite (by
/// host, the host's name, the site's own label — "Wikipedia", "LeadDev"), unless an answer
/// puts the name forward as the subject of one of its items (a maker whose site is cited
/// and whose product heads a list is a brand); and always the publishers and testing bodies.
#[derive(Default)]
pub struct SourceNames {
    cited: HashSet<String>,
    /// The subjects of the answers' items, squeezed: names put forward.
    subjects: HashSet<String>,
}

impl SourceNames {
    pub fn of<'a>(answers: impl IntoIterator<Item = &'a PreparedAnswer>) -> SourceNames {
        let mut names = SourceNames::default();
        for answer in answers {
            names.add(&answer.sources, &answer.outline);
        }
        names
    }

    /// The sites one answer cites and the subjects of its items.
    pub fn add(&mut self, sources: &[SourceLink], outline: &Outline) {
        for source in sources {
            let host = mentions::host_of(&source.url);
            self.cited
                .insert(squeeze(host.split('.').next().unwrap_or_default()));
            self.cited.insert(squeeze(&host));
            self.cited.insert(squeeze(&source.site));
        }
        self.cited.remove("");
        for item in &outline.items {
            // Its first words too: "Merrell" heads "Merrell Moab 3".
            let mut words = String::new();
            for word in outline.subject_of(item).split_whitespace().take(4) {
                words.push_str(word);
                self.subjects.insert(squeeze(&words));
            }
        }
    }

    /// `suggested` without the sources, its products too.
    pub fn brands_of(&self, suggested: Vec<Suggested>) -> Vec<Suggested> {
        suggested
            .into_iter()
            .filter(|s| !self.holds(&s.name))
            .map(|mut s| {
                s.products.retain(|p| !self.holds(p));
                s
            })
            .collect()
    }

    /// Whether `name` is a source: a domain, a publisher or testing body, or a cited site's
    /// name that no answer puts forward as an item's subject.
    pub fn holds(&self, name: &str) -> bool {
        let squeezed = squeeze(name);
        name.contains('.')
            || is_source_name(name)
            || self.cited.contains(&squeezed) && !self.subjects.contains(&squeezed)
    }
}

/// Lower case letters and digits only: "Runner's World" and "runnersworld" meet.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}
