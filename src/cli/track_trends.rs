//! `vantage track trends`: a set's runs read as trends — each brand's visibility, share of
//! voice and recommended share, the cited sources, each domain's best and mean rank — and
//! what the last run changed, headed by the sentence read from its lines.

use super::track::{invalid, located_workspace, started};
use super::{err, out, out_as_received, with_newline};
use crate::analysis::workspace::DEFAULT_COMPLETE;
use crate::config::Config;
use crate::exit;
use crate::track::changes::{self, ChangeKind};
use crate::track::diff::RunDiff;
use crate::track::observe::observe_run;
use crate::track::paired;
use crate::track::readings;
use crate::track::stat::{RunStat, Share};
use crate::track::trends::{self, Trends};

/// `track trends`: with `gaps` (the `--own` name, empty for the workspace's own brand),
/// the last run's gaps too.
pub(super) fn trends_of(
    config: &Config,
    workspace: Option<&std::path::Path>,
    set: &str,
    json: bool,
    gaps: Option<String>,
) -> i32 {
    let loaded = match located_workspace(workspace) {
        Ok(loaded) => loaded,
        Err(sentence) => return invalid(&sentence),
    };
    // Read as every view of the set reads it; a brand asked for its gaps only is read in
    // the last run alone.
    let brands = loaded.as_ref().map(|w| w.read_for(set)).unwrap_or_default();
    let mut gap_brands = brands.clone();
    let classifier = loaded.as_ref().map(|w| w.classifier()).unwrap_or_default();
    let own = match &gaps {
        None => None,
        Some(named) => {
            let tracked = loaded.as_ref().map_or(&[][..], |w| w.brands());
            let marked = || loaded.as_ref().and_then(|w| w.own()).map(str::to_string);
            match super::brands::pick_own(Some(named), marked, tracked) {
                Ok(own) => {
                    if !brands.iter().any(|b| b.name == own)
                        && let Some(brand) = tracked.iter().find(|b| b.name == own)
                    {
                        gap_brands.push(brand.clone());
                    }
                    Some(own)
                }
                Err(sentence) => {
                    return invalid(sentence.trim_start_matches("Not sent: "));
                }
            }
        }
    };
    let (store, readings) = match super::track_read::open_set_readings(config, set, &brands) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let names = readings.names.clone();
    // Each run by its start time as stored (RFC 3339), as the Track tab and the report
    // have them: the text names them at the resolution that tells them apart.
    let complete = loaded
        .as_ref()
        .and_then(|w| w.set(set))
        .map_or(DEFAULT_COMPLETE, |s| s.complete);
    let mut trends = trends::trends_of(readings.labels(), &readings.tallies, &names)
        .with_held(trends::held_of(&readings.runs, complete));
    // The changes and the gaps read the last two runs' answers, from their readings; the
    // changes over the cells both answered.
    let (before, after) = match readings.last_two(&store, &brands) {
        Ok(two) => two,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let diff = match (&before, &after) {
        (Some(before), Some(after)) => {
            let compared = paired::compare(before, after, &names);
            trends = trends.with_compared(&compared);
            Some(compared.diff)
        }
        _ => None,
    };
    let after = if gap_brands.len() > brands.len()
        && let Some(run) = readings.runs.last()
    {
        match store.track_items(&run.id) {
            Ok(items) => Some(observe_run(started(run.started_at), &items, &gap_brands)),
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        }
    } else {
        after
    };
    let last = after
        .as_ref()
        .map(|run| readings::readings(run, &gap_brands, own.as_deref(), &classifier));
    if json {
        let value = serde_json::json!({"trends": trends, "diff": diff, "last_run": last});
        out_as_received(&with_newline(value.to_string()));
        return exit::OK;
    }
    let mut text = trends_text(&trends, diff.as_ref());
    text.push_str(&incomplete_text(&trends, set, complete));
    if let Some(last) = &last {
        text.push_str(&readings_text(last));
    }
    out(&text);
    exit::OK
}

/// What the runs that hold too few of their cells are, and how to fill them.
pub fn incomplete_text(trends: &Trends, set: &str, complete: u8) -> String {
    let titles = crate::track::chart_scale::run_dates(&trends.runs);
    let mut text = String::new();
    for (r, held) in trends.incomplete() {
        let title = titles.get(r).cloned().unwrap_or_default();
        text.push_str(&format!(
            "\nRun #{} ({title}) holds {}, fewer than the {complete} % a complete run holds: it is drawn as incomplete, and no alert fires from it alone. `vantage track run {} --retry-failed --wait` asks its missing cells again into it.\n",
            r + 1,
            held.text(),
            crate::sanitize::one_line(set)
        ));
    }
    text
}

/// The last run's sources by kind, and its gaps when asked.
fn readings_text(readings: &readings::RunReadings) -> String {
    let mut text = String::new();
    if !readings.kinds.is_empty() {
        text.push_str("\nSOURCES BY KIND IN THE LAST RUN\n");
        for (group, kinds) in crate::analysis::sources::KindCounts::aligned(&readings.kinds) {
            text.push_str(&format!("  {group}  {kinds}\n"));
        }
    }
    if let Some(gaps) = &readings.gaps {
        text.push_str("\nIN THE LAST RUN\n");
        text.push_str(&gaps.text());
    }
    text
}

/// How many rows of sources and ranks the text shows.
const TOP: usize = 10;

/// "65% 43–82 @1.4": visibility, its 95 % interval and the average position.
fn stat_cell(stat: &RunStat) -> String {
    let Some((low, high)) = stat.interval() else {
        return "–".to_string();
    };
    let v = stat.visibility().unwrap_or(0.0);
    match stat.average_position() {
        Some(p) => format!("{v:.0}% {low:.0}–{high:.0} @{p:.1}"),
        None => format!("{v:.0}% {low:.0}–{high:.0}"),
    }
}

/// "1 · 2.5": the best rank at any place, then the mean over the places where it ranks (the
/// two a rank alert may compare); "–" where it did not rank.
fn rank_cell(best: Option<u32>, mean: Option<f64>) -> String {
    match (best, mean) {
        (Some(best), Some(mean)) => format!("{best} · {mean:.1}"),
        _ => "–".to_string(),
    }
}

/// The trends as text: a column per run (the last six), and the last run's changes.
pub fn trends_text(trends: &Trends, diff: Option<&RunDiff>) -> String {
    let shown = trends.runs.len().min(6);
    let skip = trends.runs.len() - shown;
    // "#3 23 Nov": the run's number, then its date as the charts name it, with the time of
    // day when two runs share a date and the second when they share a minute.
    let titles: Vec<String> = crate::track::chart_scale::run_dates(&trends.runs)
        .into_iter()
        .enumerate()
        .map(|(n, date)| match date.starts_with('#') {
            true => date,
            false => format!("#{} {date}", n + 1),
        })
        .collect();
    let width = titles
        .iter()
        .skip(skip)
        .map(|title| title.chars().count())
        .max()
        .unwrap_or(0)
        .max(16)
        .max(
            trends
                .held
                .iter()
                .map(|h| format!("{} of {} incomplete", h.answered, h.planned).len())
                .max()
                .unwrap_or(0),
        );
    let header = |title: &str| {
        let mut line = format!("{title:<28}");
        for run_title in titles.iter().skip(skip) {
            line.push_str(&format!(" {run_title:>width$}"));
        }
        line.push('\n');
        line
    };
    let row = |name: &str, cells: Vec<String>| {
        let mut line = format!("{:<28}", crate::sanitize::one_line(name));
        for cell in cells.into_iter().skip(skip) {
            line.push_str(&format!(" {cell:>width$}"));
        }
        line.push('\n');
        line
    };
    let mut text = String::new();
    if !trends.held.is_empty() {
        text.push_str(&header("RUNS: CELLS ANSWERED OF PLANNED"));
        text.push_str(&row(
            "held",
            trends
                .held
                .iter()
                .map(|h| match h.complete {
                    true => format!("{} of {}", h.answered, h.planned),
                    false => format!("{} of {} incomplete", h.answered, h.planned),
                })
                .collect(),
        ));
        text.push('\n');
    }
    if trends.brands.is_empty() {
        text.push_str("No brands are watched: add [[brands]] to the workspace file.\n");
    } else {
        text.push_str(&header("BRAND: % NAMED, 95% INTERVAL @ AVG POSITION"));
        for brand in &trends.brands {
            text.push_str(&row(
                &brand.brand,
                brand.overall.iter().map(stat_cell).collect(),
            ));
            for (model, stats) in &brand.by_model {
                text.push_str(&row(
                    &format!("  {model}"),
                    stats.iter().map(stat_cell).collect(),
                ));
            }
            for (place, stats) in &brand.by_location {
                text.push_str(&row(
                    &format!("  {place}"),
                    stats.iter().map(stat_cell).collect(),
                ));
            }
        }
    }
    // Share of voice and recommended share, per brand over the runs, beside visibility.
    for (share, title) in [
        (Share::ShareOfVoice, "SHARE OF VOICE: % OF MENTIONS"),
        (Share::Recommended, "RECOMMENDED: % OF ANSWERS"),
    ] {
        if trends.brands.is_empty() {
            break;
        }
        text.push('\n');
        text.push_str(&header(title));
        for brand in &trends.brands {
            text.push_str(&row(
                &brand.brand,
                brand
                    .overall
                    .iter()
                    .map(|stat| {
                        share
                            .of(stat)
                            .map_or("–".to_string(), |v| format!("{v:.0}%"))
                    })
                    .collect(),
            ));
        }
    }
    if !trends.sources.is_empty() {
        text.push('\n');
        text.push_str(&header("SOURCE: % OF ANSWERS CITING"));
        for source in trends.sources.iter().take(TOP) {
            text.push_str(&row(
                &source.domain,
                source.share.iter().map(|s| format!("{s:.0}%")).collect(),
            ));
        }
    }
    if !trends.ranks.is_empty() {
        let mut terms: Vec<&str> = trends.ranks.iter().map(|r| r.terms.as_str()).collect();
        terms.dedup();
        for term in terms {
            text.push('\n');
            text.push_str(&header(&format!(
                "BEST · MEAN RANK FOR \"{}\"",
                crate::sanitize::one_line(term)
            )));
            for rank in trends.ranks.iter().filter(|r| r.terms == term).take(TOP) {
                text.push_str(&row(
                    &rank.domain,
                    rank.best
                        .iter()
                        .zip(&rank.mean)
                        .map(|(best, mean)| rank_cell(*best, *mean))
                        .collect(),
                ));
            }
        }
    }
    if let Some(diff) = diff {
        text.push_str(&format!(
            "\nCHANGES IN THE LAST RUN, AGAINST THE ONE BEFORE, OVER THE CELLS BOTH ANSWERED ({})\n",
            crate::analysis::significance::PAIRED_TEST
        ));
        for line in changes::change_lines(diff, trends) {
            let sign = match line.kind {
                ChangeKind::Gained => "+ ",
                ChangeKind::Lost => "- ",
                _ => "",
            };
            let brand = if line.brand.is_empty() {
                String::new()
            } else {
                format!("{}: ", crate::sanitize::one_line(&line.brand))
            };
            text.push_str(&format!("  {sign}{brand}{}\n", line.text));
        }
    }
    text
}
