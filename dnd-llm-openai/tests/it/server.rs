//! A scripted HTTP/1.1 server on 127.0.0.1: it records each request and answers with the next
//! scripted reply, byte for byte, with pauses and cut connections where the script says.
//!
//! Hand-written on a tokio `TcpListener` (no server framework): the tests need control no
//! framework offers, such as stalling mid-body or closing a stream without its terminating
//! chunk. The OpenRouter adapter's tests include this same file.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("the request body is JSON")
    }
}

/// A piece of a streamed reply.
#[derive(Debug, Clone)]
pub enum Piece {
    /// Bytes, sent as one chunk.
    Bytes(Vec<u8>),
    /// A pause.
    Sleep(Duration),
    /// These bytes again and again, a pause between each, until the client hangs up: a
    /// server that never stops.
    Forever(Vec<u8>, Duration),
}

/// How a reply ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Chunked encoding, properly terminated.
    Chunked,
    /// Chunked encoding, connection closed without the terminating chunk.
    ChunkedCut,
    /// No length and no chunking: the body ends when the connection closes.
    Close,
}

/// A scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub pieces: Vec<Piece>,
    pub ending: Option<Ending>,
}

impl Reply {
    /// A whole body with a content length.
    pub fn body(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            pieces: vec![Piece::Bytes(body.into())],
            ending: None,
        }
    }

    /// A JSON body.
    pub fn json(status: u16, body: &Value) -> Reply {
        Reply::body(
            status,
            "application/json",
            serde_json::to_vec(body).unwrap(),
        )
    }

    /// A JSON body from a fixture file's text.
    pub fn json_text(status: u16, body: &str) -> Reply {
        Reply::body(status, "application/json", body.as_bytes().to_vec())
    }

    /// An event stream sent in these pieces.
    pub fn stream(pieces: Vec<Piece>, ending: Ending) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            pieces,
            ending: Some(ending),
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// Splits text into pieces of `size` bytes.
pub fn pieces_of(text: &str, size: usize) -> Vec<Piece> {
    text.as_bytes()
        .chunks(size)
        .map(|c| Piece::Bytes(c.to_vec()))
        .collect()
}

pub struct TestServer {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl TestServer {
    /// Starts a server answering with `replies` in order (then 500s saying the script ran out).
    pub async fn start(replies: Vec<Reply>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(replies.into_iter()));
        let recorded = Arc::clone(&requests);
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let recorded = Arc::clone(&recorded);
                let script = Arc::clone(&script);
                tokio::spawn(async move {
                    serve(socket, recorded, script).await;
                });
            }
        });
        TestServer {
            base_url: format!("http://{addr}/v1"),
            requests,
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

async fn serve(
    mut socket: TcpStream,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    script: Arc<Mutex<std::vec::IntoIter<Reply>>>,
) {
    let Some(request) = read_request(&mut socket).await else {
        return;
    };
    recorded.lock().unwrap().push(request);
    let reply = script.lock().unwrap().next().unwrap_or_else(|| {
        Reply::json(
            500,
            &serde_json::json!({"error": {"message": "the test script ran out", "type": "test"}}),
        )
    });
    let _ = write_reply(&mut socket, reply).await;
}

async fn read_request(socket: &mut TcpStream) -> Option<Recorded> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = find(&buffer, b"\r\n\r\n") {
            break at;
        }
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut start = lines.next()?.split(' ');
    let method = start.next()?.to_owned();
    let path = start.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        })
        .collect();
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut rest = buffer[head_end + 4..].to_vec();
    let body = if let Some(length) = header("content-length") {
        let length: usize = length.parse().ok()?;
        while rest.len() < length {
            let n = socket.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            rest.extend_from_slice(&chunk[..n]);
        }
        rest.truncate(length);
        rest
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            if let Some(body) = dechunk(&rest) {
                break body;
            }
            let n = socket.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            rest.extend_from_slice(&chunk[..n]);
        }
    } else {
        Vec::new()
    };
    Some(Recorded {
        method,
        path,
        headers,
        body,
    })
}

/// The body of a complete chunked encoding, or `None` if more bytes are needed.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = find(data, b"\r\n")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Some(body);
        }
        if data.len() < size + 2 {
            return None;
        }
        body.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

async fn write_reply(socket: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
    let reason = match reply.status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "Status",
    };
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nconnection: close\r\n",
        reply.status
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    match reply.ending {
        None => {
            let length: usize = reply
                .pieces
                .iter()
                .map(|p| match p {
                    Piece::Bytes(b) => b.len(),
                    Piece::Sleep(_) | Piece::Forever(..) => 0,
                })
                .sum();
            if !reply.headers.iter().any(|(n, _)| n == "content-length") {
                head.push_str(&format!("content-length: {length}\r\n"));
            }
            head.push_str("\r\n");
        }
        Some(Ending::Chunked | Ending::ChunkedCut) => {
            head.push_str("transfer-encoding: chunked\r\n\r\n");
        }
        Some(Ending::Close) => head.push_str("\r\n"),
    }
    socket.write_all(head.as_bytes()).await?;
    socket.flush().await?;
    let chunked = matches!(reply.ending, Some(Ending::Chunked | Ending::ChunkedCut));
    for piece in reply.pieces {
        match piece {
            Piece::Sleep(duration) => tokio::time::sleep(duration).await,
            Piece::Bytes(bytes) => write_piece(socket, &bytes, chunked).await?,
            // Ends only when a write fails: the client gave up.
            Piece::Forever(bytes, pause) => loop {
                write_piece(socket, &bytes, chunked).await?;
                tokio::time::sleep(pause).await;
            },
        }
    }
    if reply.ending == Some(Ending::Chunked) {
        socket.write_all(b"0\r\n\r\n").await?;
    }
    socket.flush().await?;
    socket.shutdown().await
}

/// Writes `bytes`, as one chunk when `chunked`.
async fn write_piece(socket: &mut TcpStream, bytes: &[u8], chunked: bool) -> std::io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    if chunked {
        socket
            .write_all(format!("{:x}\r\n", bytes.len()).as_bytes())
            .await?;
        socket.write_all(bytes).await?;
        socket.write_all(b"\r\n").await?;
    } else {
        socket.write_all(bytes).await?;
    }
    socket.flush().await
}
