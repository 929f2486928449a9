//! Speech through the same server: `/audio/transcriptions` (multipart upload) for
//! [`Transcriber`], `/audio/speech` (JSON in, audio out) for [`Speaker`]. Behind the `speech`
//! feature (on by default), so a game that only chats does not compile reqwest's multipart.

use async_trait::async_trait;
use bytes::Bytes;
use dnd_engine::llm::{Audio, AudioFormat, LlmError, Speaker, Transcriber};
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::multipart::{Form, Part};
use serde::Serialize;
use serde_json::Value;

use crate::http::HttpFailure;
use crate::provider::OpenAiProvider;

/// Settings of the speech endpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeechOptions {
    /// The transcription model (`whisper-1`, `gpt-4o-mini-transcribe`, ...).
    pub transcription_model: String,
    /// The spoken language as ISO-639-1 (`en`), if known: faster and more accurate.
    pub language: Option<String>,
    /// Text to guide the transcription (names of characters and places).
    pub prompt: Option<String>,
    /// The speech model (`gpt-4o-mini-tts`, `tts-1`, ...).
    pub speech_model: String,
    /// The voice (`alloy`, `onyx`, `fable`, ...).
    pub voice: String,
    /// The format of the spoken audio.
    pub format: AudioFormat,
    /// How to speak (models that take instructions): "a grave, slow storyteller".
    pub instructions: Option<String>,
    /// The largest spoken audio accepted, in bytes ([`SpeechOptions::DEFAULT_MAX_AUDIO_BYTES`],
    /// 32 MiB: about 11 minutes of 24 kHz 16-bit PCM, the largest format, while OpenAI reads
    /// at most 4096 characters, about 5 minutes of speech). Larger audio is refused with
    /// [`LlmError::BadResponse`] naming this field.
    pub max_audio_bytes: usize,
}

impl SpeechOptions {
    /// The default of [`max_audio_bytes`](SpeechOptions::max_audio_bytes): 32 MiB.
    pub const DEFAULT_MAX_AUDIO_BYTES: usize = 32 * 1024 * 1024;
}

impl Default for SpeechOptions {
    fn default() -> Self {
        SpeechOptions {
            transcription_model: "whisper-1".to_owned(),
            language: None,
            prompt: None,
            speech_model: "gpt-4o-mini-tts".to_owned(),
            voice: "alloy".to_owned(),
            format: AudioFormat::Mp3,
            instructions: None,
            max_audio_bytes: SpeechOptions::DEFAULT_MAX_AUDIO_BYTES,
        }
    }
}

#[async_trait]
impl Transcriber for OpenAiProvider {
    async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError> {
        let options = &self.config().dialect.speech;
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
        let mut headers = self.endpoint().headers().clone();
        // reqwest sets the multipart content type with its boundary.
        headers.remove(CONTENT_TYPE);
        let map_error = |failure: &HttpFailure<'_>| self.endpoint().map_failure(failure);
        let reply = self
            .endpoint()
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
        let options = &self.config().dialect.speech;
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
            .endpoint()
            .http()
            .send_with_limit(
                |client| {
                    client
                        .post(&url)
                        .headers(self.endpoint().headers().clone())
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
