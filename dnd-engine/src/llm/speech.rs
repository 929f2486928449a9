//! Speech: turning a player's recorded words into text, and narration into sound.
//!
//! Two small traits, like [`LlmProvider`](super::LlmProvider): the engine and the voice front
//! end hold a `Box<dyn Transcriber>` or `Box<dyn Speaker>` and never learn which service is
//! behind it. Failures are [`LlmError`]s, sorted the same way (retryable or not).

use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::error::LlmError;

/// The encoding of a piece of audio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AudioFormat {
    /// MPEG layer 3.
    #[default]
    Mp3,
    /// RIFF WAVE.
    Wav,
    /// Opus in an Ogg container.
    Opus,
    /// Ogg (Vorbis).
    Ogg,
    /// AAC.
    Aac,
    /// FLAC.
    Flac,
    /// WebM (Opus).
    Webm,
    /// MPEG-4 audio.
    M4a,
    /// Raw 16-bit little-endian samples (24 kHz mono for most speech services).
    Pcm,
}

impl AudioFormat {
    /// The usual file extension, without the dot (`mp3`, `wav`, ...); also the name speech
    /// services use for the format.
    pub fn extension(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "mp3",
            AudioFormat::Wav => "wav",
            AudioFormat::Opus => "opus",
            AudioFormat::Ogg => "ogg",
            AudioFormat::Aac => "aac",
            AudioFormat::Flac => "flac",
            AudioFormat::Webm => "webm",
            AudioFormat::M4a => "m4a",
            AudioFormat::Pcm => "pcm",
        }
    }

    /// The MIME type (`audio/mpeg`, `audio/wav`, ...).
    pub fn mime_type(self) -> &'static str {
        match self {
            AudioFormat::Mp3 => "audio/mpeg",
            AudioFormat::Wav => "audio/wav",
            AudioFormat::Opus | AudioFormat::Ogg => "audio/ogg",
            AudioFormat::Aac => "audio/aac",
            AudioFormat::Flac => "audio/flac",
            AudioFormat::Webm => "audio/webm",
            AudioFormat::M4a => "audio/mp4",
            AudioFormat::Pcm => "audio/pcm",
        }
    }

    /// The format with this extension or name (case-insensitive, `mpeg` and `mp4` accepted).
    pub fn from_extension(name: &str) -> Option<AudioFormat> {
        let format = match name.to_ascii_lowercase().as_str() {
            "mp3" | "mpeg" | "mpga" => AudioFormat::Mp3,
            "wav" | "wave" => AudioFormat::Wav,
            "opus" => AudioFormat::Opus,
            "ogg" | "oga" => AudioFormat::Ogg,
            "aac" => AudioFormat::Aac,
            "flac" => AudioFormat::Flac,
            "webm" => AudioFormat::Webm,
            "m4a" | "mp4" => AudioFormat::M4a,
            "pcm" | "pcm16" | "raw" => AudioFormat::Pcm,
            _ => return None,
        };
        Some(format)
    }
}

impl fmt::Display for AudioFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// Encoded audio: the bytes of a file and their format.
#[derive(Clone, PartialEq, Eq)]
pub struct Audio {
    /// The encoded bytes, as a file of `format` would hold them.
    pub bytes: Vec<u8>,
    /// How the bytes are encoded.
    pub format: AudioFormat,
}

impl Audio {
    /// Audio of this format.
    pub fn new(bytes: Vec<u8>, format: AudioFormat) -> Self {
        Audio { bytes, format }
    }
}

impl fmt::Debug for Audio {
    /// The format and the length, not the bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Audio")
            .field("format", &self.format)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// Speech to text: what a player said, from a recording.
#[async_trait]
pub trait Transcriber: Send + Sync {
    /// The words spoken in `audio`.
    ///
    /// # Errors
    ///
    /// An [`LlmError`] saying why no transcript came.
    async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError>;
}

/// Text to speech: narration read aloud.
#[async_trait]
pub trait Speaker: Send + Sync {
    /// `text` spoken, as encoded audio (the format is the implementation's setting).
    ///
    /// # Errors
    ///
    /// An [`LlmError`] saying why no audio came.
    async fn speak(&self, text: &str) -> Result<Audio, LlmError>;
}

#[async_trait]
impl<T: Transcriber + ?Sized> Transcriber for Box<T> {
    async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError> {
        (**self).transcribe(audio).await
    }
}

#[async_trait]
impl<T: Transcriber + ?Sized> Transcriber for std::sync::Arc<T> {
    async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError> {
        (**self).transcribe(audio).await
    }
}

#[async_trait]
impl<T: Speaker + ?Sized> Speaker for Box<T> {
    async fn speak(&self, text: &str) -> Result<Audio, LlmError> {
        (**self).speak(text).await
    }
}

#[async_trait]
impl<T: Speaker + ?Sized> Speaker for std::sync::Arc<T> {
    async fn speak(&self, text: &str) -> Result<Audio, LlmError> {
        (**self).speak(text).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;

    #[async_trait]
    impl Transcriber for Echo {
        async fn transcribe(&self, audio: &Audio) -> Result<String, LlmError> {
            String::from_utf8(audio.bytes.clone())
                .map_err(|e| LlmError::bad_response(e.to_string()))
        }
    }

    #[async_trait]
    impl Speaker for Echo {
        async fn speak(&self, text: &str) -> Result<Audio, LlmError> {
            Ok(Audio::new(text.as_bytes().to_vec(), AudioFormat::Wav))
        }
    }

    #[tokio::test]
    async fn traits_work_behind_pointers() {
        let speaker: Box<dyn Speaker> = Box::new(Echo);
        let audio = speaker.speak("hello").await.unwrap();
        assert_eq!(format!("{audio:?}"), "Audio { format: Wav, bytes: 5 }");
        let transcriber: std::sync::Arc<dyn Transcriber> = std::sync::Arc::new(Echo);
        assert_eq!(transcriber.transcribe(&audio).await.unwrap(), "hello");
    }

    #[test]
    fn formats_name_themselves() {
        for format in [
            AudioFormat::Mp3,
            AudioFormat::Wav,
            AudioFormat::Opus,
            AudioFormat::Ogg,
            AudioFormat::Aac,
            AudioFormat::Flac,
            AudioFormat::Webm,
            AudioFormat::M4a,
            AudioFormat::Pcm,
        ] {
            assert_eq!(
                AudioFormat::from_extension(format.extension()),
                Some(format)
            );
            assert!(format.mime_type().starts_with("audio/"));
        }
        assert_eq!(AudioFormat::from_extension("MPEG"), Some(AudioFormat::Mp3));
        assert_eq!(AudioFormat::from_extension("midi"), None);
        assert_eq!(AudioFormat::Flac.to_string(), "flac");
    }
}
