//! `vantage ai` and `vantage devices`: one chatbot answer, and the devices it can emulate.

use clap::Args;
use clap_complete::engine::ArgValueCandidates;

use super::brands::{BrandArgs, mentions_text, tracked_brands};
use super::jobs::remember_job;
use super::text::ai_text;
use super::{LocationArgs, err, exit_code_of, out, out_as_received, pretty_body, with_newline};
use crate::api::{AiFormat, AiRequest, ApiError, Client, JobId, Model};
use crate::config::Config;
use crate::present::answer;
use crate::present::compare::mentions::answer_mentions;
use crate::present::reading::AnswerReading;
use crate::sanitize::one_line;
use crate::store::{Body, NewJob, RequestParams};

use super::record::{Kept, with_history};

#[derive(Debug, Args)]
pub struct AiArgs {
    /// What to ask (up to 2,047 characters)
    pub prompt: String,
    /// chatgpt (default), gemini, perplexity or copilot
    #[arg(long, value_name = "M", add = ArgValueCandidates::new(super::shell::model_candidates))]
    pub model: Option<Model>,
    /// A device name from `vantage devices`, or desktop for no device emulation
    #[arg(long, value_name = "D")]
    pub device: Option<String>,
    #[command(flatten)]
    pub location: LocationArgs,
    /// Language (planned by the service)
    #[arg(long, value_name = "L")]
    pub language: Option<String>,
    /// Display language (planned by the service)
    #[arg(long, value_name = "L")]
    pub display: Option<String>,
    /// json (default), rendered or raw
    #[arg(long, value_name = "F", default_value = "json")]
    pub format: AiFormat,
    /// 1 allows a cached answer (default), 0 asks for a fresh one
    #[arg(long, value_name = "0|1")]
    pub expiration: Option<u32>,
    /// Queue the call and print the job id
    #[arg(long = "async")]
    pub is_async: bool,
    /// Print vantage's reading as JSON: the model and place, the answer as text and
    /// Markdown, its sources, fanouts and the tracked brands' mentions
    #[arg(long, conflicts_with = "raw")]
    pub json: bool,
    /// Print the service's body exactly as received (the chat page's HTML and all)
    #[arg(long)]
    pub raw: bool,
    #[command(flatten)]
    pub brands: BrandArgs,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

/// Returns the exit code: a queued job whose id could not be stored exits 6 after printing it.
pub(super) async fn run_ai(config: &Config, client: &Client, args: AiArgs) -> i32 {
    let location = match args.location.to_location() {
        Ok(location) => location,
        Err(sentence) => return super::refuse(&sentence),
    };
    let device = match super::devices::checked_one(
        config,
        client,
        crate::devices::DeviceList::Ai,
        args.device,
    )
    .await
    {
        Ok(device) => device,
        Err(problem) => return super::refuse(&format!("{problem}.")),
    };
    let request = AiRequest {
        prompt: args.prompt,
        model: args.model,
        device,
        location,
        language: args.language,
        display: args.display,
        format: args.format,
        expiration: args.expiration,
    };
    if args.is_async {
        let submitted = client.ai_submit(&request).await;
        return remember_submitted(config, submitted, RequestParams::Ai(request)).await;
    }
    let brands = match tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => {
            err(&sentence);
            return crate::exit::INVALID_INPUT;
        }
    };
    let kept = Kept::start(config, RequestParams::Ai(request.clone()));
    let model = request.effective_model();
    let asking = format!("Asking {}", model.display_name());
    let result = super::waiting::while_waiting(&asking, Some(model), client.ai(&request)).await;
    let kept = kept.finish(&result).await;
    let fetched = match result {
        Ok(fetched) => fetched,
        Err(error) => return with_history(exit_code_of(Err(error)), kept),
    };
    if args.raw {
        out_as_received(&fetched.body);
    } else if args.json {
        let prepared = answer::prepare(request, fetched);
        print_reading(&AnswerReading::of(
            &prepared,
            answer_mentions(&prepared, &brands),
        ));
    } else if brands.is_empty() {
        out(&with_newline(ai_text(
            &fetched.value,
            request.effective_model(),
        )));
    } else {
        let text = ai_text(&fetched.value, request.effective_model());
        let prepared = answer::prepare(request, fetched);
        out(&with_newline(format!(
            "{}\n\n{}",
            text.trim_end(),
            mentions_text(&answer_mentions(&prepared, &brands))
        )));
    }
    with_history(crate::exit::OK, kept)
}

/// `--json`: the reading, pretty, exact into a pipe.
fn print_reading(reading: &AnswerReading) {
    match serde_json::to_string_pretty(reading) {
        Ok(json) => out_as_received(&with_newline(json)),
        Err(error) => err(&format!(
            "The answer could not be written as JSON: {error}."
        )),
    }
}

/// A queued call: its id printed and stored, or the error's exit code.
pub(super) async fn remember_submitted(
    config: &Config,
    submitted: Result<JobId, ApiError>,
    params: RequestParams,
) -> i32 {
    let kept = Kept::start(config, params.clone());
    match submitted {
        // The job answers the entry when its result lands, whichever process polls it.
        Ok(id) => {
            let job = NewJob::submitted(id, params);
            let written = kept.written_entry().await;
            let job = match &written {
                Some((_, entry)) => job.answering(entry.clone()),
                None => job,
            };
            let code = remember_job(config, job).await;
            // The entry's store is let go only once its job is stored.
            drop(written);
            code
        }
        Err(error) => {
            let elapsed = kept.elapsed_ms();
            let kept = kept.finish_with(Body::of_error(&error, elapsed)).await;
            with_history(exit_code_of(Err(error)), kept)
        }
    }
}

/// The names grouped, phones then tablets, under a heading with their count; one name a
/// line, indented, so a newline inside a name cannot pass for a second device.
fn devices_text(names: &[String]) -> String {
    let groups: Vec<String> = crate::devices::grouped(names)
        .into_iter()
        .map(|(kind, members)| {
            let mut group = format!("{} ({})", kind.plural(), members.len());
            for name in members {
                group.push_str("\n  ");
                group.push_str(&one_line(name));
            }
            group
        })
        .collect();
    with_newline(groups.join("\n\n"))
}

/// `--json`: the service's body as received, pretty-printed when it is JSON.
pub(super) fn print_body_as_received(body: &str) {
    out_as_received(&with_newline(pretty_body(body)));
}

pub(super) async fn run_devices(
    client: &Client,
    list: crate::devices::DeviceList,
    json: bool,
) -> Result<(), ApiError> {
    let fetched = client.device_list(list).await?;
    if json {
        print_body_as_received(&fetched.body);
    } else if fetched.value.is_empty() {
        err(
            "The service lists no devices right now; a device name can still be typed with --device.",
        );
    } else {
        out(&devices_text(&fetched.value));
    }
    Ok(())
}
