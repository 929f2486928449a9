//! Speech through the same server: `/audio/transcriptions` (multipart upload) for
//! [`Transcriber`], `/audio/speech` (JSON in, audio out) for [`Speaker`].

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{Audio, AudioFormat, LlmError, Speaker, Transcriber};
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::multipart::{Form, Part};
use serde::Serialize;
use serde_json::Value;

use crate::http::HttpFailure;
use crate::provider::OpenAiProvider;

#[async_trait]
impl Transcriber for OpenAiProvider {
    async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError> {
        let options = &self.config().speech;
        let url = self.config().endpoint("audio/transcriptions");
        let file_name = format!("speech.{}", audio.format.extension());
        let bytes = Bytes::from(audio.bytes.clone());
        let form = || -> Result<Form, LlmError> {
            let part = Part::stream_with_length(bytes.clone(), bytes.len() as u64)
                .file_name(file_name.clone())
                .mime_str(audio.format.mime_type())
                .map_err(|e| LlmError::other(format!("the audio part could not be built: {e}")))?;
            let mut form = Form::new()
                .part("file", part)
                .text("model", options.transcription_model.clone())
                .text("response_format", "json");
            if let Some(language) = &options.language {
                form = form.text("language", language.clone());
            }
            if let Some(prompt) = &options.prompt {
                form = form.text("prompt", prompt.clone());
            }
            Ok(form)
        };
        // Checked once here, so the per-attempt builder below cannot fail.
        form()?;
        let mut headers = self.headers().clone();
        // reqwest sets the multipart content type with its boundary.
        headers.remove(CONTENT_TYPE);
        let map_error = |failure: &HttpFailure<'_>| self.endpoint().map_failure(failure);
        let reply = self
            .http()
            .send(
                |client| {
                    let request = client.post(&url).headers(headers.clone());
                    match form() {
                        Ok(form) => request.multipart(form),
                        Err(_) => request,
                    }
                },
                &map_error,
            )
            .await?;
        transcript_from_body(&reply.body).map_err(|e| self.endpoint().redacted(e))
    }
}

/// The text of a transcription response: `{"text": ...}`, or the body itself when the server
/// answered in plain text.
fn transcript_from_body(body: &[u8]) -> Result<String, LlmError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => match map.get("text") {
            Some(Value::String(text)) => Ok(text.trim().to_owned()),
            _ => Err(LlmError::bad_response(
                "the transcription response has no `text`",
            )),
        },
        Ok(Value::String(text)) => Ok(text.trim().to_owned()),
        _ => match std::str::from_utf8(body) {
            Ok(text) if !text.trim_start().starts_with(['{', '[']) => Ok(text.trim().to_owned()),
            _ => Err(LlmError::bad_response(
                "the transcription response is neither JSON nor text",
            )),
        },
    }
}

#[derive(Serialize)]
struct SpeechBody<'a> {
    model: &'a str,
    input: &'a str,
    voice: &'a str,
    response_format: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<&'a str>,
}

#[async_trait]
impl Speaker for OpenAiProvider {
    async fn speak(&self, text: &str) -> Result<Audio, LlmError> {
        let options = &self.config().speech;
        let format = options.format;
        let body = SpeechBody {
            model: &options.speech_model,
            input: text,
            voice: &options.voice,
            response_format: match format {
                AudioFormat::Pcm => "pcm",
                other => other.extension(),
            },
            instructions: options.instructions.as_deref(),
        };
        let body = Bytes::from(serde_json::to_vec(&body).map_err(|e| {
            LlmError::other(format!("the speech request could not be written: {e}"))
        })?);
        let url = self.config().endpoint("audio/speech");
        let map_error = |failure: &HttpFailure<'_>| self.endpoint().map_failure(failure);
        let reply = self
            .http()
            .send_with_limit(
                |client| {
                    client
                        .post(&url)
                        .headers(self.headers().clone())
                        .header(ACCEPT, format.mime_type())
                        .body(body.clone())
                },
                &map_error,
                options.max_audio_bytes,
                "SpeechOptions::max_audio_bytes",
            )
            .await?;
        if reply.body.is_empty() {
            return Err(LlmError::bad_response("the speech response is empty"));
        }
        let is_json = reply
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if is_json {
            return Err(LlmError::bad_response(
                "the speech endpoint answered with JSON instead of audio",
            ));
        }
        Ok(Audio::new(reply.body, format))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_in_json_or_text() {
        assert_eq!(
            transcript_from_body(br#"{"text": " I open the door. "}"#).unwrap(),
            "I open the door."
        );
        assert_eq!(
            transcript_from_body(b"I open the door.\n").unwrap(),
            "I open the door."
        );
        assert!(transcript_from_body(br#"{"words": []}"#).is_err());
        assert!(transcript_from_body(b"{broken").is_err());
    }
}
