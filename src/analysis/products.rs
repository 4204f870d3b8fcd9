//! Which names an answer puts forward are products of a brand: "La Sportiva Nucleo High II"
//! is La Sportiva's, so tracking it should track La Sportiva. A product goes under the
//! shortest run of its leading words that the answers show to be a name of its own:
//!
//! - another name put forward begins with the same words, or is them ("La Sportiva TX5",
//!   "La Sportiva");
//! - the text writes those words, as cased, on their own: not followed by the product's next
//!   word, and mid-sentence or marked as a name ("La Sportiva's lightest boot", "GitHub's
//!   ecosystem");
//! - or they are the name of a site the answer links to (lasportiva.com).
//!
//! A name without such evidence stands as it is.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::names::{NOT_A_NAME_START, WordIndex, names_a_site};

/// A name to suggest as a brand, with the products the answers name under it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggested {
    pub name: String,
    /// Longer names that are this one's products, in order of first appearance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub products: Vec<String>,
}

/// Names looked at for their brands, at most: each is looked for in the text a few times.
const MAX_NAMES: usize = 300;

/// The text read for evidence, at most: an answer's first part names its brands.
const EVIDENCE_BYTES: usize = 200 * 1024;

/// `names` (in order, each once) grouped by brand, with `text` and the linked `sites` as
/// evidence; a brand takes the place of its first product.
pub fn by_brand(names: &[String], text: &str, sites: &HashSet<String>) -> Vec<Suggested> {
    let names = &names[..names.len().min(MAX_NAMES)];
    let mut end = text.len().min(EVIDENCE_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let index = WordIndex::of(&text[..end]);
    let mut out: Vec<Suggested> = Vec::new();
    for name in names {
        let brand = brand_of(name, names, &index, sites).unwrap_or(name.as_str());
        let product = (brand != name.as_str()).then(|| name.clone());
        match out.iter_mut().find(|s| s.name.eq_ignore_ascii_case(brand)) {
            Some(group) => {
                if let Some(product) = product
                    && !group
                        .products
                        .iter()
                        .any(|p| p.eq_ignore_ascii_case(&product))
                {
                    group.products.push(product);
                }
            }
            None => out.push(Suggested {
                name: brand.to_string(),
                products: product.into_iter().collect(),
            }),
        }
    }
    out
}

/// The shortest leading words of `name` with the evidence of the module's header.
fn brand_of<'a>(
    name: &'a str,
    names: &[String],
    index: &WordIndex<'_>,
    sites: &HashSet<String>,
) -> Option<&'a str> {
    let words: Vec<(usize, &str)> = name
        .split(' ')
        .scan(0, |at, word| {
            let start = *at;
            *at += word.len() + 1;
            Some((start, word))
        })
        .collect();
    if words.len() < 2 {
        return None;
    }
    let first = words[0].1;
    if NOT_A_NAME_START.contains(&first.to_lowercase().as_str())
        || !first.starts_with(char::is_uppercase)
    {
        return None;
    }
    (1..words.len()).find_map(|k| {
        let prefix = &name[..words[k].0 - 1];
        // One short word alone ("La", "Le") is not a brand.
        if k == 1 && prefix.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            return None;
        }
        let shared = names.iter().any(|other| {
            other != name
                && (other.eq_ignore_ascii_case(prefix)
                    || other
                        .get(..prefix.len() + 1)
                        .is_some_and(|head| head.eq_ignore_ascii_case(&format!("{prefix} "))))
        });
        let next_word = words[k].1;
        (shared || stands_alone(prefix, next_word, index) || names_a_site(prefix, sites))
            .then_some(prefix)
    })
}

/// True when `text` writes `prefix`, as cased and as whole words, not followed by
/// `next_word`, in the middle of a sentence or with a name's marks (a capital inside a word).
fn stands_alone(prefix: &str, next_word: &str, index: &WordIndex<'_>) -> bool {
    let text = index.text();
    let marked = prefix
        .split(' ')
        .any(|w| w.chars().skip(1).any(char::is_uppercase));
    index.places(prefix).into_iter().any(|at| {
        let before = text[..at].chars().next_back();
        if before.is_some_and(char::is_alphanumeric) {
            return false;
        }
        let rest = &text[at + prefix.len()..];
        if rest.chars().next().is_some_and(char::is_alphanumeric) {
            return false;
        }
        let followed_by_product = rest
            .strip_prefix(' ')
            .and_then(|r| r.strip_prefix(next_word))
            .is_some_and(|r| !r.chars().next().is_some_and(char::is_alphanumeric));
        if followed_by_product {
            return false;
        }
        // Mid-sentence: the word before is in lower case or ends with a comma.
        let head = text[..at].trim_end_matches([' ', '\u{a0}']);
        let word_before = head.rsplit(char::is_whitespace).next().unwrap_or_default();
        let mid_sentence = head.len() < at
            && !word_before.is_empty()
            && (word_before.ends_with(',')
                || word_before.chars().all(|c| c.is_lowercase() || c == '\''));
        marked || mid_sentence
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_product_goes_under_its_brand_when_the_brand_stands_alone() {
        let text = "For alpine days La Sportiva's lightest boot, the La Sportiva Nucleo High II, is the pick.";
        let found = by_brand(
            &names(&["La Sportiva Nucleo High II"]),
            text,
            &HashSet::new(),
        );
        assert_eq!(
            found,
            [Suggested {
                name: "La Sportiva".into(),
                products: vec!["La Sportiva Nucleo High II".into()]
            }]
        );
    }

    #[test]
    fn products_sharing_their_first_words_go_under_them() {
        let found = by_brand(
            &names(&["Salomon X Ultra 4 GTX", "Merrell Moab 3", "Salomon Quest 4"]),
            "",
            &HashSet::new(),
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "Salomon");
        assert_eq!(
            found[0].products,
            ["Salomon X Ultra 4 GTX", "Salomon Quest 4"]
        );
        assert_eq!(found[1].name, "Merrell Moab 3");
        assert!(found[1].products.is_empty());
    }

    #[test]
    fn a_linked_site_names_the_brand() {
        let sites: HashSet<String> = ["lowa".to_string(), "lowa.com".to_string()].into();
        let found = by_brand(&names(&["Lowa Renegade GTX"]), "", &sites);
        assert_eq!(found[0].name, "Lowa");
    }

    #[test]
    fn no_evidence_no_brand_and_short_words_or_sentence_starts_are_none() {
        // "Hoka" is written only as the start of the product, "La" is too short, and a
        // capital at a sentence's start is no evidence.
        let text =
            "Hoka Kaha 2 is light. La Paz is a city. Keen makes wide boots. Keen Targhee IV.";
        let found = by_brand(
            &names(&["Hoka Kaha 2", "La Paz Boots", "Keen Targhee IV"]),
            text,
            &HashSet::new(),
        );
        let found: Vec<&str> = found.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(found, ["Hoka Kaha 2", "La Paz Boots", "Keen Targhee IV"]);
        // Mid-sentence, it is.
        let found = by_brand(
            &names(&["Keen Targhee IV"]),
            "most people like Keen for wide feet",
            &HashSet::new(),
        );
        assert_eq!(found[0].name, "Keen");
        // A name whose first word is an article is never grouped.
        let found = by_brand(&names(&["The North Face Vectiv"]), "", &HashSet::new());
        assert_eq!(found[0].name, "The North Face Vectiv");
    }
}
