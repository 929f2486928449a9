//! A server-sent events parser, small and allocation-free per event.
//!
//! Written here rather than taken from a crate (`eventsource-stream` and the like): what the
//! chat servers send needs about sixty lines (fields, comments, blank-line dispatch, three
//! line endings, bytes split anywhere), and owning it lets the stream reuse one buffer for
//! every event instead of allocating a `String` per event and per field, and keeps a
//! dependency and its own UTF-8 and error policies out of the build.
//!
//! The rules (the WHATWG HTML "event stream" format): a line ends with `\n`, `\r\n` or `\r`;
//! a line starting with `:` is a comment (keep-alives such as `: OPENROUTER PROCESSING`);
//! `field: value` sets a field (one space after the colon is dropped); `data` lines are joined
//! with `\n`; a blank line dispatches the event; `id` and `retry` are ignored (chat streams are
//! not resumed).

/// One event: its `event` field (empty for the default `message`) and its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The `event:` field; empty when the event had none.
    pub event: &'a str,
    /// The `data:` lines, joined with `\n`.
    pub data: &'a str,
}

/// Incremental parser: feed bytes as they arrive, get events as they complete.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of an unfinished line.
    line: Vec<u8>,
    /// The event being built.
    data: String,
    event: String,
    has_data: bool,
    /// The previous chunk ended with `\r`: a `\n` starting the next one ends nothing.
    after_cr: bool,
}

impl SseParser {
    /// A parser with nothing buffered.
    pub fn new() -> Self {
        SseParser::default()
    }

    /// Feeds bytes; calls `on_event` for each event they complete, in order.
    pub fn push<E>(
        &mut self,
        mut bytes: &[u8],
        on_event: &mut impl FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.after_cr && bytes.first() == Some(&b'\n') {
            bytes = &bytes[1..];
        }
        self.after_cr = false;
        while let Some(end) = bytes.iter().position(|b| *b == b'\n' || *b == b'\r') {
            let (line, rest) = bytes.split_at(end);
            self.line.extend_from_slice(line);
            let cr = rest[0] == b'\r';
            bytes = &rest[1..];
            if cr {
                match bytes.first() {
                    Some(b'\n') => bytes = &bytes[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            self.end_line(on_event)?;
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    /// The stream ended: dispatches an event left without its blank line (some servers close
    /// right after the last `data:` line).
    pub fn finish<E>(
        &mut self,
        on_event: &mut impl FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.line.is_empty() {
            self.end_line(on_event)?;
        }
        self.dispatch(on_event)
    }

    fn end_line<E>(
        &mut self,
        on_event: &mut impl FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.line.is_empty() {
            return self.dispatch(on_event);
        }
        let line = String::from_utf8_lossy(&self.line);
        if !line.starts_with(':') {
            let (field, value) = match line.find(':') {
                Some(at) => {
                    let value = &line[at + 1..];
                    (&line[..at], value.strip_prefix(' ').unwrap_or(value))
                }
                None => (&*line, ""),
            };
            match field {
                "data" => {
                    if self.has_data {
                        self.data.push('\n');
                    }
                    self.data.push_str(value);
                    self.has_data = true;
                }
                "event" => {
                    self.event.clear();
                    self.event.push_str(value);
                }
                _ => {}
            }
        }
        self.line.clear();
        Ok(())
    }

    fn dispatch<E>(
        &mut self,
        on_event: &mut impl FnMut(SseEvent<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let result = if self.has_data {
            on_event(SseEvent {
                event: &self.event,
                data: &self.data,
            })
        } else {
            Ok(())
        };
        self.data.clear();
        self.event.clear();
        self.has_data = false;
        result
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use super::*;

    fn parse_in_pieces(input: &[u8], piece: usize) -> Vec<(String, String)> {
        let mut parser = SseParser::new();
        let mut events = Vec::new();
        let mut on_event = |e: SseEvent<'_>| -> Result<(), Infallible> {
            events.push((e.event.to_owned(), e.data.to_owned()));
            Ok(())
        };
        for chunk in input.chunks(piece) {
            parser.push(chunk, &mut on_event).unwrap();
        }
        parser.finish(&mut on_event).unwrap();
        events
    }

    #[test]
    fn events_comments_and_line_endings_in_any_split() {
        let input = b": keep-alive\n\ndata: {\"a\":1}\n\ndata:first\r\ndata: second\r\n\r\nevent: error\rdata: {\"error\":{}}\r\r: OPENROUTER PROCESSING\n\ndata: [DONE]";
        for piece in 1..input.len() {
            assert_eq!(
                parse_in_pieces(input, piece),
                vec![
                    (String::new(), "{\"a\":1}".to_owned()),
                    (String::new(), "first\nsecond".to_owned()),
                    ("error".to_owned(), "{\"error\":{}}".to_owned()),
                    (String::new(), "[DONE]".to_owned()),
                ],
                "split every {piece} bytes"
            );
        }
    }

    #[test]
    fn fields_without_values_and_unknown_fields() {
        assert_eq!(
            parse_in_pieces(b"id: 7\nretry: 10\ndata\n\n", 64),
            vec![(String::new(), String::new())]
        );
        assert!(parse_in_pieces(b"id: 7\n\n\n", 64).is_empty());
    }
}
