//! The transcription and speech endpoints.

use dnd_engine::llm::{Audio, AudioFormat, LlmError, Speaker, Transcriber};
use dnd_llm_openai::{OpenAiProvider, SpeechOptions};
use serde_json::json;

use crate::server::{Reply, TestServer};
use crate::{KEY, assert_no_key, config};

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test]
async fn transcription_uploads_the_audio_as_multipart() {
    let server = TestServer::start(vec![Reply::json(
        200,
        &json!({"text": "I cast light on my sword.", "usage": {"type": "duration", "seconds": 2}}),
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url).with_speech(SpeechOptions {
        language: Some("en".into()),
        prompt: Some("Aria, Kraven, the Wailing Glacier".into()),
        ..SpeechOptions::default()
    }))
    .unwrap();
    let audio = Audio::new(
        b"RIFF\x24\0\0\0WAVEfmt fake audio".to_vec(),
        AudioFormat::Wav,
    );
    let text = provider.transcribe(&audio).await.unwrap();
    assert_eq!(text, "I cast light on my sword.");

    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/audio/transcriptions");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let content_type = request.header("content-type").unwrap();
    assert!(
        content_type.starts_with("multipart/form-data; boundary="),
        "{content_type}"
    );
    let body = &request.body;
    assert!(contains(body, b"name=\"file\"; filename=\"speech.wav\""));
    assert!(contains(body, b"Content-Type: audio/wav"));
    assert!(contains(body, b"RIFF\x24\0\0\0WAVEfmt fake audio"));
    assert!(contains(body, b"name=\"model\"\r\n\r\nwhisper-1"));
    assert!(contains(body, b"name=\"language\"\r\n\r\nen"));
    assert!(contains(
        body,
        b"name=\"prompt\"\r\n\r\nAria, Kraven, the Wailing Glacier"
    ));
}

#[tokio::test]
async fn transcription_errors_are_typed_and_retried_like_chat() {
    let oops = json!({"error": {"message": "overloaded", "type": "server_error"}});
    let server = TestServer::start(vec![
        Reply::json(503, &oops),
        Reply::json(200, &json!({"text": "hello"})),
        Reply::json(400, &json!({"error": {"message": "Invalid file format.", "type": "invalid_request_error", "param": "file"}})),
    ])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let audio = Audio::new(vec![1, 2, 3], AudioFormat::Mp3);
    assert_eq!(provider.transcribe(&audio).await.unwrap(), "hello");
    assert_eq!(server.requests().len(), 2);
    let requests = server.requests();
    for request in &requests {
        assert!(
            contains(
                &request.body,
                b"filename=\"speech.mp3\"\r\nContent-Type: audio/mpeg\r\n\r\n\x01\x02\x03\r\n"
            ),
            "the retry resends the upload"
        );
    }
    let error = provider.transcribe(&audio).await.unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::InvalidRequest {
                status: Some(400),
                ..
            }
        ),
        "{error:?}"
    );
    assert_no_key(&error);
}

#[tokio::test]
async fn speech_returns_the_audio_bytes() {
    let audio_bytes = b"ID3\x04\0\0\0\0\0\0fake mp3 frames".to_vec();
    let server = TestServer::start(vec![Reply::body(200, "audio/mpeg", audio_bytes.clone())]).await;
    let provider = OpenAiProvider::new(config(&server.base_url).with_speech(SpeechOptions {
        voice: "fable".into(),
        instructions: Some("A grave, slow storyteller.".into()),
        ..SpeechOptions::default()
    }))
    .unwrap();
    let audio = provider.speak("The glacier wails.").await.unwrap();
    assert_eq!(audio.format, AudioFormat::Mp3);
    assert_eq!(audio.bytes, audio_bytes);
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/audio/speech");
    assert_eq!(
        request.json(),
        json!({
            "model": "gpt-4o-mini-tts",
            "input": "The glacier wails.",
            "voice": "fable",
            "response_format": "mp3",
            "instructions": "A grave, slow storyteller."
        })
    );
}

#[tokio::test]
async fn speech_that_answers_json_is_an_error() {
    let server = TestServer::start(vec![Reply::json(
        200,
        &json!({"error": null, "note": "not audio"}),
    )])
    .await;
    let provider = OpenAiProvider::new(config(&server.base_url)).unwrap();
    let error = provider.speak("hello").await.unwrap_err();
    assert!(matches!(error, LlmError::BadResponse { .. }), "{error:?}");
}
