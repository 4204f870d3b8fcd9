//! Pickers built from data, shared by every form: models, devices from `/ai/devices` or
//! `/search/devices`, countries, first-level subdivisions and cities from the embedded data, languages.

use crate::api::{Location, Model};
use crate::devices::{self, DeviceKind, DeviceList};
use crate::geo;
use crate::present::compare::overview::{AI_OVERVIEW, AI_OVERVIEW_NAME, AnswerSource};

use super::picker::{PickItem, Picker, PickerKind};
use super::{App, Devices, Popup};

/// The model picker; unset means the service's default.
pub(crate) fn model(current: Option<Model>) -> Picker {
    Picker::new(
        PickerKind::Model,
        std::iter::once(PickItem::new(
            "default (chatgpt)",
            None,
            "the service's default",
        ))
        .chain(Model::ALL.iter().map(|m| {
            let (lo, hi) = m.typical_seconds();
            PickItem::new(
                m.display_name(),
                Some(m.as_str().to_string()),
                format!("{lo}–{hi} s live"),
            )
        }))
        .collect(),
        current.map(Model::as_str),
    )
}

/// The models and Google's AI Overview as a multi-select: it stays open, Enter toggles the
/// highlighted source, Esc closes. Shared by Compare's columns and a set's models.
pub(crate) fn sources(checked: &[AnswerSource], at: Option<AnswerSource>) -> Picker {
    let mut items = model(None).items;
    items.push(PickItem::new(
        AI_OVERVIEW_NAME,
        Some(AI_OVERVIEW.to_string()),
        "Google, one search per location",
    ));
    let value = |source: &AnswerSource| match source {
        AnswerSource::Model(model) => model.as_str().to_string(),
        AnswerSource::AiOverview => AI_OVERVIEW.to_string(),
    };
    let current = at.as_ref().map(value);
    Picker::new(PickerKind::Model, items, current.as_deref())
        .with_note("Enter adds or removes the highlighted model; Esc when done.")
        .with_checked(checked.iter().map(value))
}

/// The picker of a device list: the service's list, or a note on why there is none; a name
/// can always be typed.
pub(crate) fn device(app: &App, list: DeviceList, current: Option<&str>) -> Picker {
    devices_from(list, app.device_list(list), current)
}

/// The kind of picker a device list is chosen in, and which list a picker's kind reads.
pub(crate) fn device_kind(list: DeviceList) -> PickerKind {
    match list {
        DeviceList::Ai => PickerKind::Device,
        DeviceList::Search => PickerKind::SearchDevice,
    }
}

pub(crate) fn device_list_of(kind: PickerKind) -> Option<DeviceList> {
    match kind {
        PickerKind::Device => Some(DeviceList::Ai),
        PickerKind::SearchDevice => Some(DeviceList::Search),
        _ => None,
    }
}

/// [`device`] from a list at hand (for a caller that holds part of the app).
pub(crate) fn devices_from(list: DeviceList, devices: &Devices, current: Option<&str>) -> Picker {
    let mut items = vec![
        PickItem::new(
            devices::DESKTOP,
            Some(devices::DESKTOP.to_string()),
            "no device emulation",
        )
        .also_known_as(&["none", "computer"]),
    ];
    // No device is the desktop: that is the one highlighted then.
    let current = Some(current.unwrap_or(devices::DESKTOP));
    let note = match devices {
        Devices::Loaded(list) if list.is_empty() => {
            Some("The service lists no devices right now; type a name and press Enter.".to_string())
        }
        Devices::Loaded(list) => {
            // Phones, then tablets; typing "tablet" or "phone" finds a whole group.
            for (kind, names) in devices::grouped(list) {
                items.extend(names.into_iter().map(|name| {
                    PickItem::new(name, Some(name.to_string()), kind.word())
                        .also_known_as(kind_words(kind))
                }));
            }
            None
        }
        Devices::Loading | Devices::NotFetched => {
            Some("Loading the device list…; you can type a name.".to_string())
        }
        Devices::Failed(e) => Some(format!("The device list could not be loaded: {e}")),
    };
    let picker = Picker::new(device_kind(list), items, current).with_custom();
    match note {
        Some(note) => picker.with_note(note),
        None => picker,
    }
}

fn kind_words(kind: DeviceKind) -> &'static [&'static str] {
    match kind {
        DeviceKind::Phone => &["phone"],
        DeviceKind::Tablet => &["tablet"],
    }
}

/// The device picker as a multi-select over `checked`: it stays open, Enter toggles.
pub(crate) fn devices_checked(
    list: DeviceList,
    devices: &Devices,
    checked: &[String],
    at: Option<&str>,
) -> Picker {
    checked_from(devices_from(list, devices, at), checked)
}

fn checked_from(picker: Picker, checked: &[String]) -> Picker {
    // The device picker's own note says why its list is empty; keep that one.
    let picker = if picker.note.is_some() {
        picker
    } else {
        picker.with_note("Enter adds or removes the highlighted device; Esc when done.")
    };
    picker.with_checked(checked.iter().cloned())
}

/// Rebuilds an open device picker when its list arrives, keeping what was typed, highlighted
/// and checked.
pub(crate) fn refresh_device_picker(app: &mut App) {
    let Some(Popup::Picker(open)) = &app.popup else {
        return;
    };
    let Some(list) = device_list_of(open.kind) else {
        return;
    };
    let at = match open.choose() {
        super::picker::Choice::Set(value) => value,
        super::picker::Choice::Nothing => None,
    };
    let (filter, checked) = (open.filter.clone(), open.checked.clone());
    let mut fresh = device(app, list, at.as_deref());
    if let Some(checked) = checked {
        fresh = checked_from(fresh, &checked);
    }
    fresh.set_filter(filter, &mut app.matcher);
    app.popup = Some(Popup::Picker(fresh));
}

/// What a multi-select picker's Enter does to its list: takes the value out, or adds it.
pub(crate) fn toggle<T: PartialEq>(list: &mut Vec<T>, value: T) {
    match list.iter().position(|v| *v == value) {
        Some(i) => {
            list.remove(i);
        }
        None => list.push(value),
    }
}

/// Country, subdivision and city pickers from the embedded data, shared by every form.
pub(crate) fn location(kind: PickerKind, location: &Location) -> Picker {
    let country = location.country.as_deref().unwrap_or("");
    let random = PickItem::random();
    match kind {
        PickerKind::Country => Picker::new(
            kind,
            std::iter::once(random)
                .chain(geo::countries().iter().map(|c| {
                    PickItem::new(
                        format!("{} ({})", c.name, c.code),
                        Some(c.code.to_string()),
                        "",
                    )
                    .also_known_as(geo::country_aliases(c.code))
                }))
                .collect(),
            location.country.as_deref(),
        ),
        PickerKind::Subdivision => {
            let list = geo::subdivisions(country);
            let picker = Picker::new(
                kind,
                std::iter::once(random)
                    .chain(list.iter().map(|s| {
                        PickItem::new(
                            format!("{} ({})", s.name, s.short),
                            Some(s.short.to_string()),
                            s.kind,
                        )
                        .also_known_as(geo::subdivision_aliases(s.code))
                    }))
                    .collect(),
                location.subdivision.as_deref(),
            );
            if list.is_empty() {
                picker.with_custom().with_note(format!(
                    "No subdivisions are known for {country}; type a code."
                ))
            } else {
                picker
            }
        }
        PickerKind::City => city(location),
        _ => Picker::new(kind, vec![random], None),
    }
}

/// Compare's locations, each chosen by its place in the list.
pub(crate) fn axis_locations(locations: &[Location]) -> Picker {
    Picker::new(
        PickerKind::AxisLocation,
        locations
            .iter()
            .enumerate()
            .map(|(i, location)| PickItem::new(location.describe(), Some(i.to_string()), ""))
            .collect(),
        None,
    )
    .with_checked((0..locations.len()).map(|i| i.to_string()))
}

/// The city picker: the cities of the chosen subdivision where the data maps them, else
/// the country's, each with its subdivision so same-name cities are told apart.
fn city(location: &Location) -> Picker {
    let country = location.country.as_deref().unwrap_or("");
    let chosen = location.subdivision.as_deref();
    let narrowed = chosen.and_then(|s| geo::cities_in(country, s));
    let note = match (chosen, &narrowed) {
        (Some(_), Some(_)) | (None, _) => {
            "Suggestions from GeoNames; any city name can be typed.".to_string()
        }
        (Some(s), None) => format!(
            "The city data does not say which cities lie in {s}: all of {country} are listed; \
             any name can be typed."
        ),
    };
    let cities: Vec<&geo::City> = narrowed.unwrap_or_else(|| geo::cities(country).iter().collect());
    let show_subdivision =
        location.subdivision.is_none() || cities.iter().all(|c| c.admin1.is_empty());
    Picker::new(
        PickerKind::City,
        std::iter::once(PickItem::random())
            .chain(cities.iter().map(|c| {
                let label = if c.alias.is_empty() {
                    c.name.to_string()
                } else {
                    format!("{} ({})", c.name, c.alias)
                };
                let population = format_population(c.population);
                let detail = match geo::subdivision_of(c).filter(|_| show_subdivision) {
                    Some(s) => format!("{} · {population}", s.name),
                    None => population,
                };
                PickItem::new(label, Some(c.name.to_string()), detail)
            }))
            .collect(),
        location.city.as_deref(),
    )
    .with_custom()
    .with_note(note)
}

pub(crate) fn language(kind: PickerKind, current: Option<&str>) -> Picker {
    Picker::new(
        kind,
        std::iter::once(PickItem::new("unset", None, ""))
            .chain(geo::languages().iter().map(|l| {
                PickItem::new(
                    format!("{} ({})", l.name, l.code),
                    Some(l.code.to_string()),
                    "",
                )
            }))
            .collect(),
        current,
    )
    .with_custom()
    .with_note("Planned by the service: sent, but not applied yet.")
}

fn format_population(population: u32) -> String {
    if population >= 1_000_000 {
        format!("{:.1} M", population as f64 / 1_000_000.0)
    } else {
        format!("{} k", population / 1000)
    }
}

/// Sets a location part as [`apply_location_only`] does; a city listed with its subdivision
/// ("Denver · Colorado") fills the subdivision too when none is chosen and the name is one
/// city of the country, so the place sent is the place read. (A proxy keeps the parts it was
/// given: a subdivision narrows its pool.)
pub(crate) fn apply_location(location: &mut Location, kind: PickerKind, value: Option<String>) {
    if kind == PickerKind::City
        && location.subdivision.is_none()
        && let (Some(country), Some(name)) = (location.country.as_deref(), value.as_deref())
    {
        let mut same_name = geo::cities(country)
            .iter()
            .filter(|c| c.name.eq_ignore_ascii_case(name));
        if let (Some(city), None) = (same_name.next(), same_name.next())
            && let Some(subdivision) = geo::subdivision_of(city)
        {
            location.subdivision = Some(subdivision.short.to_string());
        }
    }
    apply_location_only(location, kind, value);
}

/// Sets a location part; a new country clears the subdivision and city of the old one.
pub(crate) fn apply_location_only(
    location: &mut Location,
    kind: PickerKind,
    value: Option<String>,
) {
    match kind {
        PickerKind::Country => {
            if location.country != value {
                location.subdivision = None;
                location.city = None;
            }
            location.country = value;
        }
        PickerKind::Subdivision => location.subdivision = value,
        PickerKind::City => location.city = value,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::picker::Choice;
    use crate::fuzzy::FuzzyMatcher;

    #[test]
    fn a_city_picked_fills_its_subdivision_when_none_is_chosen() {
        let mut location = us(None);
        apply_location(&mut location, PickerKind::City, Some("Denver".into()));
        assert_eq!(location.subdivision.as_deref(), Some("CO"));
        assert_eq!(location.city.as_deref(), Some("Denver"));
        // One chosen already stays as it is.
        let mut chosen = us(Some("TX"));
        apply_location(&mut chosen, PickerKind::City, Some("Denver".into()));
        assert_eq!(chosen.subdivision.as_deref(), Some("TX"));
    }

    fn us(subdivision: Option<&str>) -> Location {
        Location {
            country: Some("US".into()),
            subdivision: subdivision.map(str::to_string),
            ..Location::default()
        }
    }

    #[test]
    fn common_names_find_their_country_and_an_exact_one_comes_first() {
        let mut matcher = FuzzyMatcher::new();
        for (typed, code) in [
            ("usa", "US"),
            ("uk", "GB"),
            ("britain", "GB"),
            ("deutschland", "DE"),
        ] {
            let mut picker = location(PickerKind::Country, &Location::default());
            picker.set_filter(typed.into(), &mut matcher);
            assert_eq!(picker.choose(), Choice::Set(Some(code.into())), "{typed}");
        }
    }

    #[test]
    fn a_subdivision_is_found_by_its_english_name_as_by_its_own() {
        let germany = Location {
            country: Some("DE".into()),
            ..Location::default()
        };
        let mut matcher = FuzzyMatcher::new();
        for typed in ["Bavaria", "bayern", "BY"] {
            let mut picker = location(PickerKind::Subdivision, &germany);
            picker.set_filter(typed.into(), &mut matcher);
            assert_eq!(picker.choose(), Choice::Set(Some("BY".into())), "{typed}");
        }
    }

    #[test]
    fn the_city_picker_is_narrowed_by_the_chosen_subdivision() {
        let mut picker = location(PickerKind::City, &us(Some("CO")));
        assert_eq!(picker.items[1].label, "Denver");
        picker.set_filter("den".into(), &mut FuzzyMatcher::new());
        assert_eq!(picker.choose(), Choice::Set(Some("Denver".into())));
        assert!(picker.items.iter().all(|i| i.label != "Denton"));
        // Bavaria: GeoNames says 02, ISO says BY.
        let bavaria = Location {
            country: Some("DE".into()),
            subdivision: Some("BY".into()),
            ..Location::default()
        };
        assert_eq!(
            location(PickerKind::City, &bavaria).items[1].label,
            "München (Munich)"
        );
    }

    #[test]
    fn same_name_cities_are_told_apart_by_their_subdivision() {
        let mut picker = location(PickerKind::City, &us(None));
        picker.set_filter("springfield".into(), &mut FuzzyMatcher::new());
        let springfields: Vec<&str> = picker
            .rows
            .iter()
            .map(|r| &picker.items[r.item])
            .filter(|i| i.label == "Springfield")
            .map(|i| i.detail.as_str())
            .collect();
        assert!(springfields.len() > 3, "{springfields:?}");
        let states: std::collections::HashSet<&str> = springfields
            .iter()
            .map(|d| d.split(" · ").next().unwrap())
            .collect();
        assert_eq!(states.len(), springfields.len(), "{springfields:?}");
    }

    #[test]
    fn a_subdivision_the_data_cannot_map_lists_the_whole_country_and_says_so() {
        let spain = Location {
            country: Some("ES".into()),
            subdivision: Some("MD".into()),
            ..Location::default()
        };
        let picker = location(PickerKind::City, &spain);
        assert!(picker.items.len() > 100);
        assert!(picker.note.as_deref().unwrap().contains("does not say"));
    }
}
