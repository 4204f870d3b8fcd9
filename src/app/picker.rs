//! A popup list with a fuzzy filter: models, devices, countries, subdivisions, cities,
//! languages. The first entry of most pickers is "random", which leaves the choice to the
//! service.

use crate::fuzzy::FuzzyMatcher;

/// What a picker chooses; each maps to one setting of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PickerKind {
    Model,
    /// A device an AI answer is asked as (`/ai/devices`).
    Device,
    /// A device a results page is fetched as (`/search/devices`).
    SearchDevice,
    Country,
    Subdivision,
    City,
    Language,
    Display,
    /// One of Compare's locations, to remove it.
    AxisLocation,
    /// A set of the workspace file, to edit (or a new one).
    TrackSet,
    /// A tracked brand a set watches.
    Brand,
}

impl PickerKind {
    pub fn title(self) -> &'static str {
        match self {
            PickerKind::Model => "Model",
            PickerKind::Device | PickerKind::SearchDevice => "Device",
            PickerKind::Country => "Country",
            PickerKind::Subdivision => "Subdivision",
            PickerKind::City => "City",
            PickerKind::Language => "Language",
            PickerKind::Display => "Display language",
            PickerKind::AxisLocation => "Remove a location",
            PickerKind::TrackSet => "Edit a set",
            PickerKind::Brand => "Tracked brands",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickItem {
    /// What the list shows and the filter matches.
    pub label: String,
    /// What is set when chosen; `None` unsets (random).
    pub value: Option<String>,
    /// A dim note after the label (a code, a population).
    pub detail: String,
    /// Other names the filter finds the item by (USA, Britain), not shown.
    pub also_known_as: &'static [&'static str],
}

impl PickItem {
    pub fn new(label: impl Into<String>, value: Option<String>, detail: impl Into<String>) -> Self {
        PickItem {
            label: label.into(),
            value,
            detail: detail.into(),
            also_known_as: &[],
        }
    }

    /// The item found by these other names too.
    pub fn also_known_as(mut self, names: &'static [&'static str]) -> Self {
        self.also_known_as = names;
        self
    }

    pub fn random() -> PickItem {
        PickItem::new("random", None, "the service picks")
    }
}

/// One visible row: an item and where the filter matched in its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub item: usize,
    pub positions: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Picker {
    pub kind: PickerKind,
    pub items: Vec<PickItem>,
    pub filter: String,
    pub rows: Vec<Row>,
    pub selected: usize,
    /// A typed value that matches no item can be chosen as is (device, city).
    pub allow_custom: bool,
    /// A line under the title: why the list is empty, "planned", …
    pub note: Option<String>,
    /// In a multi-select picker, the values chosen so far (shown with a checkmark).
    pub checked: Option<Vec<String>>,
    /// The filter's cursor and undo.
    pub edit: super::input::EditState,
}

/// What choosing in a picker did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Set(Option<String>),
    Nothing,
}

impl Picker {
    pub fn new(kind: PickerKind, items: Vec<PickItem>, current: Option<&str>) -> Picker {
        let rows = (0..items.len())
            .map(|item| Row {
                item,
                positions: Vec::new(),
            })
            .collect();
        let selected = items
            .iter()
            .position(|i| i.value.as_deref() == current)
            .unwrap_or(0);
        Picker {
            kind,
            items,
            filter: String::new(),
            rows,
            selected,
            allow_custom: false,
            note: None,
            checked: None,
            edit: super::input::EditState::default(),
        }
    }

    /// Makes this a multi-select picker with these values chosen.
    pub fn with_checked(mut self, values: impl IntoIterator<Item = String>) -> Picker {
        self.checked = Some(values.into_iter().collect());
        self
    }

    /// Whether an item shows a checkmark: `None` when the picker is not a multi-select.
    pub fn is_checked(&self, item: &PickItem) -> Option<bool> {
        let checked = self.checked.as_ref()?;
        Some(
            item.value
                .as_ref()
                .is_some_and(|value| checked.contains(value)),
        )
    }

    pub fn with_custom(mut self) -> Picker {
        self.allow_custom = true;
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Picker {
        self.note = Some(note.into());
        self
    }

    /// The typed filter, when it can be chosen as a value of its own.
    pub fn custom_value(&self) -> Option<&str> {
        let typed = self.filter.trim();
        let exact = self.items.iter().any(|i| {
            i.value
                .as_deref()
                .is_some_and(|v| v.eq_ignore_ascii_case(typed))
        });
        (self.allow_custom && !typed.is_empty() && !exact).then_some(typed)
    }

    /// Rows plus the custom entry, if any, which comes last: a match is the likelier choice.
    pub fn row_count(&self) -> usize {
        self.rows.len() + usize::from(self.custom_value().is_some())
    }

    pub fn set_filter(&mut self, filter: String, matcher: &mut FuzzyMatcher) {
        self.filter = filter;
        let ranked = matcher.rank(&self.filter, self.items.iter().map(|i| i.label.as_str()));
        self.rows = ranked
            .into_iter()
            .map(|r| Row {
                item: r.index,
                positions: r.positions,
            })
            .collect();
        // Items found by another name follow those found by their label.
        let typed = self.filter.trim();
        if !typed.is_empty() {
            let mut found = vec![false; self.items.len()];
            for row in &self.rows {
                found[row.item] = true;
            }
            for (index, item) in self.items.iter().enumerate() {
                if !found[index] && !item.also_known_as.is_empty() {
                    let by_other_name = matcher.rank(typed, item.also_known_as.iter().copied());
                    if !by_other_name.is_empty() {
                        self.rows.push(Row {
                            item: index,
                            positions: Vec::new(),
                        });
                    }
                }
            }
        }
        // An exact name goes first: "iphone 15" means "iPhone 15", not "iPhone 15 Pro Max";
        // "uk" means the United Kingdom, not Ukraine.
        if let Some(exact) = self.rows.iter().position(|r| {
            let item = &self.items[r.item];
            item.label.eq_ignore_ascii_case(typed)
                || item
                    .value
                    .as_deref()
                    .is_some_and(|v| v.eq_ignore_ascii_case(typed))
                || item
                    .also_known_as
                    .iter()
                    .any(|name| name.eq_ignore_ascii_case(typed))
        }) {
            let row = self.rows.remove(exact);
            self.rows.insert(0, row);
        }
        self.selected = 0;
    }

    pub fn type_char(&mut self, c: char, matcher: &mut FuzzyMatcher) {
        let mut filter = self.filter.clone();
        filter.push(c);
        self.set_filter(filter, matcher);
    }

    pub fn backspace(&mut self, matcher: &mut FuzzyMatcher) {
        let mut filter = self.filter.clone();
        filter.pop();
        self.set_filter(filter, matcher);
    }

    pub fn move_by(&mut self, delta: isize) {
        let count = self.row_count();
        if count == 0 {
            self.selected = 0;
            return;
        }
        let next = self.selected as isize + delta;
        self.selected = next.clamp(0, count as isize - 1) as usize;
    }

    /// The item at a visible row; `None` past the matches (the custom entry).
    pub fn item_at(&self, row: usize) -> Option<&PickItem> {
        self.rows.get(row).and_then(|r| self.items.get(r.item))
    }

    pub fn choose(&self) -> Choice {
        if self.selected == self.rows.len()
            && let Some(typed) = self.custom_value()
        {
            return Choice::Set(Some(typed.to_string()));
        }
        match self.item_at(self.selected) {
            Some(item) => Choice::Set(item.value.clone()),
            None => Choice::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cities() -> Picker {
        Picker::new(
            PickerKind::City,
            vec![
                PickItem::random(),
                PickItem::new("New York City", Some("New York City".into()), ""),
                PickItem::new("Los Angeles", Some("Los Angeles".into()), ""),
            ],
            None,
        )
    }

    #[test]
    fn filtering_ranks_and_choosing_sets() {
        let mut matcher = FuzzyMatcher::new();
        let mut picker = cities();
        assert_eq!(picker.choose(), Choice::Set(None));
        for c in "los".chars() {
            picker.type_char(c, &mut matcher);
        }
        assert_eq!(picker.rows.len(), 1);
        assert_eq!(picker.choose(), Choice::Set(Some("Los Angeles".into())));
    }

    #[test]
    fn a_typed_value_can_be_chosen_when_custom_is_allowed() {
        let mut matcher = FuzzyMatcher::new();
        let mut picker = cities().with_custom();
        picker.set_filter("Springfield".into(), &mut matcher);
        assert_eq!(picker.custom_value(), Some("Springfield"));
        assert_eq!(picker.choose(), Choice::Set(Some("Springfield".into())));
        let mut closed = cities();
        closed.set_filter("Springfield".into(), &mut matcher);
        assert_eq!(closed.choose(), Choice::Nothing);
    }

    #[test]
    fn an_exact_name_ranks_first() {
        let mut matcher = FuzzyMatcher::new();
        let mut picker = Picker::new(
            PickerKind::Device,
            vec![
                PickItem::new("iPhone 15 Pro Max", Some("iPhone 15 Pro Max".into()), ""),
                PickItem::new("iPhone 15", Some("iPhone 15".into()), ""),
            ],
            None,
        );
        picker.set_filter("iphone 15".into(), &mut matcher);
        assert_eq!(picker.choose(), Choice::Set(Some("iPhone 15".into())));
    }

    #[test]
    fn the_current_value_is_preselected() {
        let picker = Picker::new(PickerKind::City, cities().items, Some("Los Angeles"));
        assert_eq!(picker.selected, 2);
    }
}
