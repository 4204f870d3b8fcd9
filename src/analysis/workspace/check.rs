//! The checks a run makes of each item of a set, made where the item is typed or written:
//! `track set new|add` (naming the flag) and the Track tab's set form (naming the row) call
//! [`first_refused`], so a set that would be refused at run time is never written.

use super::super::mentions::Brand;
use super::TrackSet;
use crate::api::{AiRequest, Field, Location, SearchRequest};

/// A list of a set, as the flags and the form name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetList {
    Prompts,
    Terms,
    Devices,
    Locations,
    Brands,
}

impl SetList {
    /// The flag of `track set` that fills this list.
    pub fn flag(self) -> &'static str {
        match self {
            SetList::Prompts => "--prompt",
            SetList::Terms => "--term",
            SetList::Devices => "--devices",
            SetList::Locations => "--locations",
            SetList::Brands => "--brands",
        }
    }

    /// The row of the set form that shows this list.
    pub fn row(self) -> &'static str {
        match self {
            SetList::Prompts => "prompt",
            SetList::Terms => "term",
            SetList::Devices => "device",
            SetList::Locations => "location",
            SetList::Brands => "brand",
        }
    }
}

/// The items of a set to check, borrowed from the set or from the flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct SetItemsRef<'a> {
    pub prompts: &'a [String],
    pub terms: &'a [String],
    pub devices: &'a [String],
    pub locations: &'a [Location],
    pub brands: &'a [String],
}

/// An item a run would refuse: its list, its place there (from 1), how many the list
/// holds, and what is wrong ("is 3000 characters; the service takes at most 2047").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub list: SetList,
    pub number: usize,
    pub of: usize,
    pub problem: String,
}

impl Refusal {
    /// The sentence for the command line: "--prompt 3 is 3000 characters; …."
    pub fn for_flags(&self) -> String {
        self.sentence(self.list.flag())
    }

    /// The sentence for the set form: "Prompt 3 is 3000 characters; …."
    pub fn for_form(&self) -> String {
        let sentence = self.sentence(self.list.row());
        let mut chars = sentence.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }

    fn sentence(&self, name: &str) -> String {
        let named = if self.of > 1 {
            format!("{name} {}", self.number)
        } else {
            name.to_string()
        };
        let problem = self.problem.trim_end_matches('.');
        match self.list {
            // The service's words for terms are plural ("are 300 characters").
            SetList::Terms => format!("the terms of {named} {problem}."),
            _ => format!("{named} {problem}."),
        }
    }
}

impl TrackSet {
    /// The set's items, to check.
    pub fn items(&self) -> SetItemsRef<'_> {
        SetItemsRef {
            prompts: &self.prompts,
            terms: &self.terms,
            devices: &self.devices,
            locations: &self.locations,
            brands: &self.brands,
        }
    }
}

/// The first item a run would refuse, checked by the same rules the run's calls are
/// (`AiRequest::validate`, `SearchRequest::validate`), and each watched brand against the
/// file's `[[brands]]`.
pub fn first_refused(items: SetItemsRef<'_>, tracked: &[Brand]) -> Option<Refusal> {
    first_in(SetList::Prompts, items.prompts, |p| {
        AiRequest::new(p.as_str())
            .validate()
            .err()
            .and_then(|e| e.message_for(Field::Prompt).map(str::to_string))
    })
    .or_else(|| {
        first_in(SetList::Terms, items.terms, |t| {
            SearchRequest::new(t.as_str())
                .validate()
                .err()
                .and_then(|e| e.message_for(Field::Terms).map(str::to_string))
        })
    })
    .or_else(|| {
        first_in(SetList::Devices, items.devices, |d| {
            // The rule every device meets; the service's list is checked when the set runs.
            if let Err(problem) = crate::devices::check(d, &[]) {
                return Some(problem);
            }
            let request = AiRequest {
                device: Some(d.clone()),
                ..AiRequest::new("a prompt")
            };
            request
                .validate()
                .err()
                .and_then(|e| e.message_for(Field::Device).map(str::to_string))
        })
    })
    .or_else(|| {
        first_in(SetList::Locations, items.locations, |l| {
            let request = AiRequest {
                location: l.clone(),
                ..AiRequest::new("a prompt")
            };
            request.validate().err().map(|e| format!("is refused: {e}"))
        })
    })
    .or_else(|| {
        first_in(SetList::Brands, items.brands, |name| {
            let known = tracked.iter().any(|b| b.name.eq_ignore_ascii_case(name));
            (!known).then(|| not_tracked(name, tracked))
        })
    })
}

fn first_in<T>(
    list: SetList,
    items: &[T],
    problem: impl Fn(&T) -> Option<String>,
) -> Option<Refusal> {
    items.iter().enumerate().find_map(|(i, item)| {
        problem(item).map(|problem| Refusal {
            list,
            number: i + 1,
            of: items.len(),
            problem,
        })
    })
}

fn not_tracked(name: &str, tracked: &[Brand]) -> String {
    let quoted = crate::sanitize::excerpt(name, crate::sanitize::QUOTED_CHARS);
    if tracked.is_empty() {
        format!(
            "names {quoted:?}, but the workspace file tracks no brands; add it as a [[brands]] table there (or in the app's Brands pane) first"
        )
    } else {
        let names: Vec<&str> = tracked.iter().map(|b| b.name.as_str()).collect();
        format!(
            "names {quoted:?}, which is not one of the tracked brands ({}); add it as a [[brands]] table in the workspace file (or in the app's Brands pane) first",
            names.join(", ")
        )
    }
}

/// A brand's domains as typed: the Brands form's field and the part after `=` in
/// `--brands` alike. Commas, spaces and `+` all separate them (the form's list is
/// comma-separated, the flag joins with `+`); what is not a domain is refused with a
/// sentence, so `lowa.com+lowa.de` never becomes one domain that matches nothing.
pub fn parse_domains(text: &str) -> Result<Vec<String>, String> {
    let mut domains: Vec<String> = Vec::new();
    for part in text.split([',', '+', ' ', '\t']).filter(|p| !p.is_empty()) {
        let domain = part.trim_end_matches('.').to_lowercase();
        if !is_domain(&domain) {
            return Err(format!(
                "{:?} is not a domain; write a site's domain, like lowa.com, and separate several with commas, spaces or +",
                crate::sanitize::excerpt(part, crate::sanitize::QUOTED_CHARS)
            ));
        }
        if !domains.contains(&domain) {
            domains.push(domain);
        }
    }
    Ok(domains)
}

/// A host name of at least two labels: letters, digits and inner hyphens, as DNS takes them
/// (letters of any script, for international names).
fn is_domain(text: &str) -> bool {
    let labels: Vec<&str> = text.split('.').collect();
    text.chars().count() <= 253
        && labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.chars().count() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_split_on_commas_spaces_and_plus_alike() {
        for typed in [
            "lowa.com+lowa.de",
            "lowa.com, lowa.de",
            "lowa.com lowa.de",
            " Lowa.com ,+ lowa.de. ",
        ] {
            assert_eq!(
                parse_domains(typed).unwrap(),
                ["lowa.com", "lowa.de"],
                "{typed}"
            );
        }
        assert_eq!(parse_domains("").unwrap(), Vec::<String>::new());
        assert_eq!(parse_domains("bücher.de").unwrap(), ["bücher.de"]);
        for wrong in [
            "lowa",
            "https://lowa.com",
            "lowa..com",
            "-lowa.com",
            "lowa.com/boots",
        ] {
            let problem = parse_domains(wrong).unwrap_err();
            assert!(problem.contains("is not a domain"), "{wrong}: {problem}");
        }
        let long = format!("{}.com", "x".repeat(3000));
        assert!(parse_domains(&long).unwrap_err().len() < 300);
    }

    #[test]
    fn a_long_prompt_is_refused_with_its_number_and_not_quoted() {
        let prompts = vec!["fine".to_string(), "x".repeat(3000)];
        let refusal = first_refused(
            SetItemsRef {
                prompts: &prompts,
                ..SetItemsRef::default()
            },
            &[],
        )
        .unwrap();
        assert_eq!(
            refusal.for_flags(),
            "--prompt 2 is 3000 characters; the service takes at most 2047."
        );
        assert_eq!(refusal.for_form().split(' ').next(), Some("Prompt"));
    }

    #[test]
    fn terms_devices_places_and_brands_are_checked_as_a_run_checks_them() {
        let long_terms = vec!["t".repeat(300)];
        let refusal = first_refused(
            SetItemsRef {
                terms: &long_terms,
                ..SetItemsRef::default()
            },
            &[],
        )
        .unwrap();
        assert!(
            refusal
                .for_flags()
                .starts_with("the terms of --term are 300")
        );
        let devices = vec!["d".repeat(150)];
        let refusal = first_refused(
            SetItemsRef {
                devices: &devices,
                ..SetItemsRef::default()
            },
            &[],
        )
        .unwrap();
        assert_eq!(refusal.list, SetList::Devices);
        let places = vec![Location {
            country: Some("DE".into()),
            subdivision: None,
            city: Some("c".repeat(150)),
        }];
        let refusal = first_refused(
            SetItemsRef {
                locations: &places,
                ..SetItemsRef::default()
            },
            &[],
        )
        .unwrap();
        assert!(refusal.for_flags().starts_with("--locations is refused"));
        let brands = vec!["Lowa".to_string(), "Keen".to_string()];
        let refusal = first_refused(
            SetItemsRef {
                brands: &brands,
                ..SetItemsRef::default()
            },
            &[Brand::named("lowa")],
        )
        .unwrap();
        assert_eq!(refusal.number, 2);
        assert!(refusal.for_flags().starts_with("--brands 2 names \"Keen\""));
    }
}
