//! Device names checked before anything is sent, as places are: against the service's list
//! the store keeps (the app's cache too), fetched again when a day old or missing. A name
//! the list lacks is refused with the nearest listed ones; desktop is no emulation.

use crate::api::Client;
use crate::config::Config;
use crate::devices::{self, DeviceList};

/// How old the kept list may be before it is fetched again.
const STALE_MS: i64 = 24 * 60 * 60 * 1000;

/// The service's device names: the kept list while fresh, else fetched (and kept); a stale
/// list when the fetch fails; none when there is neither, so that names pass as typed.
async fn catalogue(config: &Config, client: &Client, list: DeviceList) -> Vec<String> {
    let store = super::record::open_store(config).ok();
    let kept = store
        .as_ref()
        .and_then(|store| store.load_devices(list).ok().flatten());
    let now = crate::store::now_ms();
    if let Some(kept) = &kept
        && now.saturating_sub(kept.fetched_at) < STALE_MS
        && !kept.names.is_empty()
    {
        return kept.names.clone();
    }
    match client.device_list(list).await {
        Ok(fetched) => {
            if let Some(store) = &store
                && !fetched.value.is_empty()
            {
                // A cache: a failed write costs only a fetch next time.
                let _ = store.save_devices(list, fetched.value.clone()).await;
            }
            fetched.value
        }
        Err(_) => kept.map(|k| k.names).unwrap_or_default(),
    }
}

/// Each typed device checked, as the list spells it (desktop as `desktop`); the first
/// refused one's reason otherwise (a clause, for the caller's sentence). The list is
/// fetched only when a name needs it.
pub(super) async fn checked(
    config: &Config,
    client: &Client,
    list: DeviceList,
    typed: &[String],
) -> Result<Vec<String>, String> {
    let needs_list = typed.iter().any(|d| {
        let d = d.trim();
        !d.is_empty() && !devices::is_desktop(d)
    });
    let names = match needs_list {
        true => catalogue(config, client, list).await,
        false => Vec::new(),
    };
    let mut out: Vec<String> = Vec::new();
    for device in typed {
        let device = devices::check(device, &names).map_err(|problem| {
            let command = match list {
                DeviceList::Ai => "vantage devices",
                DeviceList::Search => "vantage devices --search",
            };
            format!(
                "{problem} ({command} lists them; {} is no emulation)",
                devices::DESKTOP
            )
        })?;
        if !out.contains(&device) {
            out.push(device);
        }
    }
    Ok(out)
}

/// One typed device checked: what the request sends (none for desktop).
pub(super) async fn checked_one(
    config: &Config,
    client: &Client,
    list: DeviceList,
    typed: Option<String>,
) -> Result<Option<String>, String> {
    match typed {
        None => Ok(None),
        Some(typed) => Ok(checked(config, client, list, &[typed])
            .await?
            .first()
            .and_then(|d| devices::emulated(d))),
    }
}
