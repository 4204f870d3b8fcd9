//! The devices the simulator emulates, named as the live service names them: the phones and
//! tablets Puppeteer knows by name (its list of known devices), each with its "landscape"
//! twin, and newer phones named the same way, served alphabetized case-insensitively as the
//! live `/ai/devices` is ("Blackberry PlayBook", "Blackberry PlayBook landscape",
//! "BlackBerry Z30", …). No device means the desktop answer: there is no desktop name.

use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeviceClass {
    Phone,
    Tablet,
    /// No device asked for.
    Desktop,
}

use DeviceClass::{Phone, Tablet};

/// Each device upright; its landscape twin is added by [`devices`].
const UPRIGHT: &[(&str, DeviceClass)] = &[
    ("Blackberry PlayBook", Tablet),
    ("BlackBerry Z30", Phone),
    ("Galaxy Note 3", Phone),
    ("Galaxy Note II", Phone),
    ("Galaxy S III", Phone),
    ("Galaxy S5", Phone),
    ("Galaxy S8", Phone),
    ("Galaxy S9+", Phone),
    ("Galaxy S23", Phone),
    ("Galaxy S23 Ultra", Phone),
    ("Galaxy S24", Phone),
    ("Galaxy Tab S4", Tablet),
    ("Galaxy Tab S9", Tablet),
    ("iPad", Tablet),
    ("iPad (gen 6)", Tablet),
    ("iPad (gen 7)", Tablet),
    ("iPad Mini", Tablet),
    ("iPad Pro", Tablet),
    ("iPad Pro 11", Tablet),
    ("iPhone 4", Phone),
    ("iPhone 5", Phone),
    ("iPhone 6", Phone),
    ("iPhone 6 Plus", Phone),
    ("iPhone 7", Phone),
    ("iPhone 7 Plus", Phone),
    ("iPhone 8", Phone),
    ("iPhone 8 Plus", Phone),
    ("iPhone SE", Phone),
    ("iPhone X", Phone),
    ("iPhone XR", Phone),
    ("iPhone 11", Phone),
    ("iPhone 11 Pro", Phone),
    ("iPhone 11 Pro Max", Phone),
    ("iPhone 12", Phone),
    ("iPhone 12 Mini", Phone),
    ("iPhone 12 Pro", Phone),
    ("iPhone 12 Pro Max", Phone),
    ("iPhone 13", Phone),
    ("iPhone 13 Mini", Phone),
    ("iPhone 13 Pro", Phone),
    ("iPhone 13 Pro Max", Phone),
    ("iPhone 14", Phone),
    ("iPhone 14 Plus", Phone),
    ("iPhone 14 Pro", Phone),
    ("iPhone 14 Pro Max", Phone),
    ("iPhone 15", Phone),
    ("iPhone 15 Plus", Phone),
    ("iPhone 15 Pro", Phone),
    ("iPhone 15 Pro Max", Phone),
    ("JioPhone 2", Phone),
    ("Kindle Fire HDX", Tablet),
    ("LG Optimus L70", Phone),
    ("Microsoft Lumia 550", Phone),
    ("Microsoft Lumia 950", Phone),
    ("Moto G4", Phone),
    ("Nexus 10", Tablet),
    ("Nexus 4", Phone),
    ("Nexus 5", Phone),
    ("Nexus 5X", Phone),
    ("Nexus 6", Phone),
    ("Nexus 6P", Phone),
    ("Nexus 7", Tablet),
    ("Nokia Lumia 520", Phone),
    ("Nokia N9", Phone),
    ("Pixel 2", Phone),
    ("Pixel 2 XL", Phone),
    ("Pixel 3", Phone),
    ("Pixel 4", Phone),
    ("Pixel 4a (5G)", Phone),
    ("Pixel 5", Phone),
    ("Pixel 7", Phone),
    ("Pixel 7 Pro", Phone),
    ("Pixel 8", Phone),
];

/// Every name with its class, each upright device followed by its landscape twin,
/// alphabetized case-insensitively; built once.
pub(crate) fn devices() -> &'static [(String, DeviceClass)] {
    static LIST: OnceLock<Vec<(String, DeviceClass)>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<(String, DeviceClass)> = UPRIGHT
            .iter()
            .flat_map(|&(name, class)| {
                [
                    (name.to_string(), class),
                    (format!("{name} landscape"), class),
                ]
            })
            .collect();
        list.sort_by_cached_key(|(name, _)| name.to_lowercase());
        list
    })
}

/// The canonical spelling of a device name, matched case-insensitively as live.
pub(crate) fn device_named(name: &str) -> Option<&'static str> {
    let wanted = name.trim().to_lowercase();
    devices()
        .iter()
        .find(|(device, _)| device.to_lowercase() == wanted)
        .map(|(device, _)| device.as_str())
}

/// The class of a canonical name; no device is the desktop.
pub(crate) fn device_class(device: Option<&str>) -> DeviceClass {
    device
        .and_then(|name| devices().iter().find(|(d, _)| d == name))
        .map_or(DeviceClass::Desktop, |(_, class)| *class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_starts_as_the_live_one_and_has_a_landscape_twin_for_each() {
        let names: Vec<&str> = devices().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..3],
            [
                "Blackberry PlayBook",
                "Blackberry PlayBook landscape",
                "BlackBerry Z30"
            ]
        );
        assert_eq!(names.len(), UPRIGHT.len() * 2);
        for (name, _) in UPRIGHT {
            assert!(
                names.contains(&format!("{name} landscape").as_str()),
                "{name}"
            );
        }
        let lowered: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        assert!(
            lowered.windows(2).all(|w| w[0] < w[1]),
            "alphabetized, no repeats"
        );
    }

    #[test]
    fn names_match_whatever_their_case_and_none_is_a_desktop() {
        assert_eq!(device_named(" iphone 14 "), Some("iPhone 14"));
        assert_eq!(
            device_named("BLACKBERRY playbook LANDSCAPE"),
            Some("Blackberry PlayBook landscape")
        );
        assert_eq!(device_named("Windows 11 – Chrome"), None);
        assert_eq!(
            device_class(Some("iPad Mini landscape")),
            DeviceClass::Tablet
        );
        assert_eq!(device_class(Some("Pixel 7")), DeviceClass::Phone);
        assert_eq!(device_class(None), DeviceClass::Desktop);
        assert!(devices().iter().all(|(_, c)| *c != DeviceClass::Desktop));
    }
}
