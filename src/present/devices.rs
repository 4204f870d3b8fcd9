//! The service's device list grouped for showing: phones, then tablets. The service sends
//! names only (Puppeteer's emulation names, "iPad Mini landscape"), so the kind is read from
//! the name; a name of no known tablet line is a phone, as most emulated devices are.

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
