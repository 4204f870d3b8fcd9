//! `vantage ai` and `vantage devices`: one chatbot answer, and the devices it can emulate.

use clap::Args;

use super::jobs::remember_job;
use super::text::ai_text;
use super::{LocationArgs, out, pretty_body, with_newline};
use crate::api::{AiFormat, AiRequest, ApiError, Client, Model};
use crate::config::Config;
use crate::store::{NewJob, RequestParams};

#[derive(Debug, Args)]
pub struct AiArgs {
    /// What to ask (up to 2,047 characters)
    pub prompt: String,
    /// chatgpt (default), gemini, perplexity or copilot
    #[arg(long, value_name = "M")]
    pub model: Option<Model>,
    /// A device name from `vantage devices`
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
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
}

pub(super) async fn run_ai(config: &Config, client: &Client, args: AiArgs) -> Result<(), ApiError> {
    let request = AiRequest {
        prompt: args.prompt,
        model: args.model,
        device: args.device,
        location: args.location.to_location(),
        language: args.language,
        display: args.display,
        format: args.format,
        expiration: args.expiration,
    };
    if args.is_async {
        let id = client.ai_submit(&request).await?;
        remember_job(
            config,
            NewJob::submitted(id.clone(), RequestParams::Ai(request)),
        )
        .await;
        out(&format!("{id}\n"));
        return Ok(());
    }
    let fetched = client.ai(&request).await?;
    if args.json {
        out(&with_newline(pretty_body(&fetched.body)));
    } else {
        out(&with_newline(ai_text(
            &fetched.value,
            request.effective_model(),
        )));
    }
    Ok(())
}

pub(super) async fn run_devices(client: &Client, json: bool) -> Result<(), ApiError> {
    let fetched = client.devices().await?;
    if json {
        out(&with_newline(pretty_body(&fetched.body)));
    } else if fetched.value.is_empty() {
        eprintln!(
            "The service lists no devices right now; a device name can still be typed with --device."
        );
    } else {
        out(&with_newline(fetched.value.join("\n")));
    }
    Ok(())
}
