//! A set's alerts written back as `[[sets.alerts]]` tables, and one alert checked alone by
//! the reader of the file (`tables::read_alerts`): the app's form, the CLI and the loader
//! refuse the same alerts with the same words.

use toml_edit::{ArrayOfTables, Item, Table, value};

use super::super::alerts::Alert;
use super::tables::{field_error, read_alerts, string_array};
use super::{Workspace, location_spec};

const ALERTS_KEY: &str = "alerts";

/// An alert as its table in the file: the brand (or domain), the measure, its one
/// threshold and its filters.
fn alert_table(alert: &Alert) -> Table {
    let mut table = Table::new();
    if let Some(brand) = &alert.brand {
        table.insert("brand", value(brand.as_str()));
    } else if let Some(domain) = &alert.domain {
        table.insert("domain", value(domain.as_str()));
    }
    table.insert("measure", value(alert.measure.as_str()));
    let threshold = alert.condition.threshold();
    // Whole numbers as the user types them ("10", not "10.0").
    let number = if threshold.fract() == 0.0 && threshold.abs() < 1e15 {
        value(threshold as i64)
    } else {
        value(threshold)
    };
    table.insert(alert.condition.key(), number);
    if !alert.models.is_empty() {
        table.insert("models", value(string_array(&alert.models)));
    }
    if !alert.locations.is_empty() {
        let places: Vec<String> = alert.locations.iter().map(location_spec).collect();
        table.insert("locations", value(string_array(&places)));
    }
    table
}

/// Writes a set's alerts into its table. Alerts as they were keep their tables (comments,
/// spelling and order of keys); a changed or new one gets a table of its own; none left
/// takes the key away.
pub(super) fn write_alerts(set_table: &mut Table, alerts: &[Alert], before: &[Alert]) {
    if alerts == before {
        return;
    }
    if alerts.is_empty() {
        set_table.remove(ALERTS_KEY);
        return;
    }
    let kept: Vec<Table> = set_table
        .get(ALERTS_KEY)
        .and_then(Item::as_array_of_tables)
        .map(|list| list.iter().cloned().collect())
        .unwrap_or_default();
    let mut used = vec![false; kept.len()];
    let mut list = ArrayOfTables::new();
    for alert in alerts {
        let same = before
            .iter()
            .enumerate()
            .position(|(i, old)| old == alert && i < kept.len() && !used[i]);
        match same {
            Some(i) => {
                used[i] = true;
                list.push(kept[i].clone());
            }
            None => list.push(alert_table(alert)),
        }
    }
    set_table.insert(ALERTS_KEY, Item::ArrayOfTables(list));
}

impl Workspace {
    /// The alert as the file's reader takes it (brand tracked, measure it can watch, one
    /// threshold not negative, models and places known), or what is wrong, in the words a
    /// hand-written file gets without its line: "alerts.below: should be a number, …".
    pub fn check_alert(&self, alert: &Alert) -> Result<Alert, String> {
        let mut set = Table::new();
        set.insert(
            ALERTS_KEY,
            Item::ArrayOfTables(ArrayOfTables::from_iter([alert_table(alert)])),
        );
        let text = set.to_string();
        let field = field_error(self.path(), &text);
        let mut read = read_alerts(&set, &field, self.brands()).map_err(|e| e.problem())?;
        read.pop()
            .ok_or_else(|| "the alert could not be read back".to_string())
    }
}
