//! Brand suggestions come from evidence that a word is a name: over the demo's answers to
//! five prompts from the four models, at least 8 of every 10 suggestions are brands, shops
//! or publishers — not headings, measures or the question's own words.

mod common;

use vantage::api::{AiRequest, Model};
use vantage::present::answer;

/// Every name the simulator's answers to these prompts may put forward: products, shops,
/// publishers and their sites.
const NAMES: &[&str] = &[
    "Switchback Travel",
    "switchbacktravel.com",
    "OutdoorGearLab",
    "outdoorgearlab.com",
    "La Sportiva Nucleo High II",
    "Keen Targhee IV",
    "Hoka Kaha 2",
    "Merrell Moab 3 Mid",
    "Salomon X Ultra 4 GTX",
    "Lowa Renegade GTX",
    "Scarpa Rush Trek",
    // The makers, which the answers show as names of their own, products under them.
    "Salomon",
    "Merrell",
    "La Sportiva",
    "Lowa",
    "Hoka",
    "Keen",
    "Scarpa",
    // The running shoes the simulator's catalogue holds, and their makers.
    "Brooks Ghost 16",
    "Hoka Clifton 9",
    "Asics Gel-Nimbus 26",
    "Nike Pegasus 41",
    "Saucony Ride 17",
    "New Balance Fresh Foam 1080v14",
    "On Cloudmonster",
    "Adidas Adizero Boston 12",
    "Mizuno Wave Rider 28",
    "Brooks",
    "Asics",
    "Nike",
    "Saucony",
    "New Balance",
    "On",
    "Adidas",
    "Mizuno",
    "rei.com",
    "REI",
    "treelinereview.com",
    "Treeline Review",
    "reddit.com",
    "Reddit",
    "runnersworld.com",
    "Runner's World",
    "nytimes.com",
    "Wirecutter",
    "backpacker.com",
    "Backpacker",
    "Bankrate",
    "bankrate.com",
    "Morningstar",
    "morningstar.com",
    "NerdWallet",
    "nerdwallet.com",
    "investopedia.com",
    "Investopedia",
    "forbes.com",
    "Forbes",
    "Quora",
    "quora.com",
    "Consumer Reports",
    "youtube.com",
    "YouTube",
    "en.wikipedia.org",
    "Wikipedia",
];

#[tokio::test]
async fn suggestions_over_five_prompts_from_four_models_are_mostly_names() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let prompts = [
        "best hiking boots",
        "best trail running shoes",
        "waterproof hiking boots",
        "best savings account",
        "best web framework",
    ];
    let mut suggested: Vec<String> = Vec::new();
    for prompt in prompts {
        for model in Model::ALL {
            let request = AiRequest {
                model: Some(model),
                ..AiRequest::new(prompt)
            };
            let fetched = client.ai(&request).await.unwrap();
            // A brand and the products the answer names under it are all names.
            for found in answer::prepare(request, fetched).candidates {
                suggested.push(found.name);
                suggested.extend(found.products);
            }
        }
    }
    assert!(suggested.len() >= 20, "enough to judge: {suggested:?}");
    let names = suggested
        .iter()
        .filter(|s| NAMES.contains(&s.as_str()))
        .count();
    let not_names: Vec<&String> = suggested
        .iter()
        .filter(|s| !NAMES.contains(&s.as_str()))
        .collect();
    assert!(
        names * 10 >= suggested.len() * 8,
        "{names} of {} are names; the others: {not_names:?}",
        suggested.len()
    );
}
