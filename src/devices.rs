//! The service's device names: a name as typed, checked by one rule wherever a device is
//! chosen ([`check`]), and the list grouped for showing, phones then tablets. The service
//! sends names only (Puppeteer's emulation names, "iPad Mini landscape"), so the kind is
//! read from the name; a name of no known tablet line is a phone, as most emulated devices
//! are. "desktop" is no emulation at all: the service's default, a desktop browser, which
//! can stand as a column beside phones.

/// Which of the service's lists a device is chosen from: an AI answer's (`/ai/devices`) or a
/// results page's (`/search/devices`). The live service keeps them apart; each is checked
/// against its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceList {
    Ai,
    Search,
}

impl DeviceList {
    pub const ALL: [DeviceList; 2] = [DeviceList::Ai, DeviceList::Search];

    /// The service's path that lists it.
    pub fn path(self) -> &'static str {
        match self {
            DeviceList::Ai => "/ai/devices",
            DeviceList::Search => "/search/devices",
        }
    }

    /// Its row in the store's cache.
    pub fn key(self) -> i64 {
        match self {
            DeviceList::Ai => 1,
            DeviceList::Search => 2,
        }
    }
}

/// The name of no device emulation: the request carries no `device`, and the service
/// answers as to a desktop browser.
pub const DESKTOP: &str = "desktop";

/// Words that name no one device: the live service's guides say "mobile" and "desktop";
/// desktop is [`DESKTOP`], the others are refused with catalogue names of their kind.
const GENERIC: [(&str, DeviceKind); 5] = [
    ("mobile", DeviceKind::Phone),
    ("phone", DeviceKind::Phone),
    ("smartphone", DeviceKind::Phone),
    ("android", DeviceKind::Phone),
    ("tablet", DeviceKind::Tablet),
];

/// Whether `name` means no device emulation ("desktop", or "none" as the pickers wrote it).
pub fn is_desktop(name: &str) -> bool {
    let name = name.trim();
    name.eq_ignore_ascii_case(DESKTOP) || name.eq_ignore_ascii_case("none")
}

/// What a request sends for a checked name: nothing for desktop, else the name.
pub fn emulated(name: &str) -> Option<String> {
    (!is_desktop(name)).then(|| name.trim().to_string())
}

/// A device as typed, checked against the service's list (`catalogue`, as last fetched):
/// desktop stays [`DESKTOP`]; a listed name is given as the list spells it (the service
/// reads names case-insensitively); a generic word or an unlisted name is refused with the
/// nearest listed names (a clause: where the list is shown is the caller's to say). With no
/// list at hand (the service lists none, or it could not be
/// fetched) a name passes as typed, for the service to judge.
pub fn check(typed: &str, catalogue: &[String]) -> Result<String, String> {
    let name = typed.trim();
    if name.is_empty() {
        return Err(format!(
            "an empty device name: name one, or {DESKTOP} for no emulation"
        ));
    }
    if is_desktop(name) {
        return Ok(DESKTOP.to_string());
    }
    let shown = crate::sanitize::excerpt(name, crate::sanitize::QUOTED_CHARS);
    if let Some((_, kind)) = GENERIC
        .iter()
        .find(|(word, _)| name.eq_ignore_ascii_case(word))
    {
        let of_kind = newest_of_each_line(catalogue, *kind);
        return Err(match of_kind.is_empty() {
            true => format!(
                "“{shown}” names no one device: name one the service emulates, or {DESKTOP} for no emulation"
            ),
            false => format!(
                "“{shown}” names no one device: name one the service emulates, such as {}, or {DESKTOP} for no emulation",
                of_kind.join(", ")
            ),
        });
    }
    if catalogue.is_empty() {
        return Ok(name.to_string());
    }
    if let Some(listed) = catalogue
        .iter()
        .find(|n| n.trim().eq_ignore_ascii_case(name))
    {
        return Ok(listed.clone());
    }
    Err(format!(
        "“{shown}” is not a device the service emulates; the nearest: {}",
        nearest(name, catalogue).join(", ")
    ))
}

/// Up to three names of `kind` to offer for a generic word: the newest of each line (the
/// first word: iPhone, Galaxy, Pixel), the lines with the most names first, upright only.
fn newest_of_each_line(catalogue: &[String], kind: DeviceKind) -> Vec<&str> {
    let number = |name: &str| -> u32 {
        name.split(|c: char| !c.is_ascii_digit())
            .filter_map(|digits| digits.parse().ok())
            .max()
            .unwrap_or(0)
    };
    // Per line: its count of names and its newest (the highest number, then the shortest).
    let mut lines: Vec<(&str, usize, &str)> = Vec::new();
    for name in catalogue
        .iter()
        .map(String::as_str)
        .filter(|n| kind_of(n) == kind && !n.ends_with(" landscape"))
    {
        let line = name.split_whitespace().next().unwrap_or(name);
        match lines.iter_mut().find(|(l, _, _)| *l == line) {
            Some((_, count, newest)) => {
                *count += 1;
                let better = (number(name), std::cmp::Reverse(name.len()))
                    > (number(newest), std::cmp::Reverse(newest.len()));
                if better {
                    *newest = name;
                }
            }
            None => lines.push((line, 1, name)),
        }
    }
    lines.sort_by_key(|(_, count, _)| std::cmp::Reverse(*count));
    lines
        .into_iter()
        .take(3)
        .map(|(_, _, newest)| newest)
        .collect()
}

/// Up to three listed names nearest to `typed`, by similarity of their lower-case forms.
fn nearest<'a>(typed: &str, catalogue: &'a [String]) -> Vec<&'a str> {
    let typed = typed.to_lowercase();
    // A landscape twin only when one was typed: "Nokia N9, Nokia N9 landscape" says one
    // thing twice.
    let turned = typed.ends_with(" landscape");
    let mut scored: Vec<(f64, &str)> = catalogue
        .iter()
        .filter(|n| turned || !n.ends_with(" landscape"))
        .map(|n| (strsim::jaro_winkler(&typed, &n.to_lowercase()), n.as_str()))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}

/// What kind of device a name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    Phone,
    Tablet,
}

impl DeviceKind {
    /// The group's heading.
    pub fn plural(self) -> &'static str {
        match self {
            DeviceKind::Phone => "Phones",
            DeviceKind::Tablet => "Tablets",
        }
    }

    /// The word a picker shows beside a name and finds it by.
    pub fn word(self) -> &'static str {
        match self {
            DeviceKind::Phone => "phone",
            DeviceKind::Tablet => "tablet",
        }
    }
}

/// Words of a name that make it a tablet: Apple's, Samsung's, Amazon's, BlackBerry's and
/// Google's tablet lines (Nexus 7 and 10 were tablets, the other Nexus phones).
const TABLET_WORDS: [&str; 5] = ["ipad", "tab", "kindle", "playbook", "tablet"];
const TABLET_NAMES: [&str; 2] = ["nexus 7", "nexus 10"];

/// The kind of a device from its name, its landscape twin alike.
pub fn kind_of(name: &str) -> DeviceKind {
    let lower = name.trim().to_lowercase();
    let upright = lower.strip_suffix(" landscape").unwrap_or(&lower).trim();
    let tablet = upright
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| TABLET_WORDS.contains(&word))
        || TABLET_NAMES.contains(&upright);
    if tablet {
        DeviceKind::Tablet
    } else {
        DeviceKind::Phone
    }
}

/// The names by kind, phones first, each group in the service's order; a kind with no name
/// is left out.
pub fn grouped(names: &[String]) -> Vec<(DeviceKind, Vec<&str>)> {
    [DeviceKind::Phone, DeviceKind::Tablet]
        .into_iter()
        .map(|kind| {
            let members: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|name| kind_of(name) == kind)
                .collect();
            (kind, members)
        })
        .filter(|(_, members)| !members.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue() -> Vec<String> {
        [
            "iPhone 15",
            "iPhone 15 Pro",
            "Pixel 7",
            "Galaxy S9+",
            "iPad Mini",
            "Nokia N9",
        ]
        .iter()
        .map(|n| n.to_string())
        .collect()
    }

    #[test]
    fn one_rule_for_a_typed_device() {
        let list = catalogue();
        assert_eq!(check("Desktop", &list).unwrap(), DESKTOP);
        assert_eq!(check(" none ", &list).unwrap(), DESKTOP);
        assert_eq!(emulated(DESKTOP), None);
        assert_eq!(emulated("iPhone 15").as_deref(), Some("iPhone 15"));
        assert_eq!(check("iphone 15", &list).unwrap(), "iPhone 15");
        let nokia = check("Nokia 3310", &list).unwrap_err();
        assert!(nokia.contains("Nokia N9"), "{nokia}");
        let mobile = check("mobile", &list).unwrap_err();
        assert!(
            mobile.contains("such as iPhone 15, Pixel 7, Galaxy S9+") && mobile.contains(DESKTOP),
            "{mobile}"
        );
        assert!(check("tablet", &list).unwrap_err().contains("iPad Mini"));
        assert!(check(" ", &list).unwrap_err().contains("empty"));
        // No list at hand: the service judges.
        assert_eq!(check("Nokia 3310", &[]).unwrap(), "Nokia 3310");
        assert!(check("mobile", &[]).is_err());
        // Nothing typed reaches the terminal raw.
        let hostile = check("\u{1b}[2Jx", &list).unwrap_err();
        assert!(!hostile.contains('\u{1b}'), "{hostile:?}");
    }

    #[test]
    fn tablets_are_known_by_their_lines_and_the_rest_are_phones() {
        for tablet in [
            "iPad",
            "iPad (gen 7) landscape",
            "Blackberry PlayBook",
            "Galaxy Tab S4",
            "Kindle Fire HDX landscape",
            "Nexus 7",
            "Nexus 10 landscape",
        ] {
            assert_eq!(kind_of(tablet), DeviceKind::Tablet, "{tablet}");
        }
        for phone in [
            "iPhone 14",
            "BlackBerry Z30",
            "Nexus 5X",
            "Galaxy S9+ landscape",
            "Pixel 4a (5G)",
            "Nexus 70",
        ] {
            assert_eq!(kind_of(phone), DeviceKind::Phone, "{phone}");
        }
    }

    #[test]
    fn groups_keep_the_service_order_phones_first() {
        let names: Vec<String> = ["Blackberry PlayBook", "BlackBerry Z30", "iPad", "iPhone 14"]
            .map(String::from)
            .to_vec();
        let groups = grouped(&names);
        assert_eq!(
            groups,
            vec![
                (DeviceKind::Phone, vec!["BlackBerry Z30", "iPhone 14"]),
                (DeviceKind::Tablet, vec!["Blackberry PlayBook", "iPad"]),
            ]
        );
        assert!(grouped(&[]).is_empty());
    }
}
