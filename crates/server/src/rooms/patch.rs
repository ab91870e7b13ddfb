//! Writing RFC 6902 patches and whole messages straight into JSON bytes, with
//! no `serde_json::Value` tree in between (the publish hot path).

use std::io::Write;

use serde::Serialize;

/// One segment of a JSON Pointer.
#[derive(Debug, Clone, Copy)]
pub enum Seg {
    /// An object key; only static keys that need no escaping (no `~`, `/`, `"` or `\`).
    Key(&'static str),
    /// An array index.
    Index(usize),
}

/// A JSON Patch being written: `[op, op, …]` without the brackets.
#[derive(Debug, Default)]
pub struct PatchWriter {
    buf: Vec<u8>,
    ops: usize,
}

impl PatchWriter {
    /// An empty patch.
    pub fn new() -> Self {
        PatchWriter::default()
    }

    /// Whether no operation was written.
    pub fn is_empty(&self) -> bool {
        self.ops == 0
    }

    /// The operations, comma separated (the inside of the patch array).
    pub fn ops(&self) -> &[u8] {
        &self.buf
    }

    /// `{"op":"replace","path":…,"value":…}`.
    pub fn replace<T: Serialize + ?Sized>(&mut self, path: &[Seg], value: &T) {
        self.start("replace", path);
        self.buf.extend_from_slice(b",\"value\":");
        write_json(&mut self.buf, value);
        self.buf.push(b'}');
    }

    /// Replaces the value at `path` if `old != new`.
    pub fn replace_if<T: Serialize + PartialEq + ?Sized>(
        &mut self,
        path: &[Seg],
        old: &T,
        new: &T,
    ) {
        if old != new {
            self.replace(path, new);
        }
    }

    fn start(&mut self, op: &str, path: &[Seg]) {
        if self.ops > 0 {
            self.buf.push(b',');
        }
        self.ops += 1;
        self.buf.extend_from_slice(b"{\"op\":\"");
        self.buf.extend_from_slice(op.as_bytes());
        self.buf.extend_from_slice(b"\",\"path\":\"");
        for seg in path {
            self.buf.push(b'/');
            match seg {
                Seg::Key(key) => {
                    debug_assert!(!key.contains(['~', '/', '"', '\\']), "key needs escaping");
                    self.buf.extend_from_slice(key.as_bytes());
                }
                Seg::Index(i) => {
                    let _ = write!(self.buf, "{i}");
                }
            }
        }
        self.buf.push(b'"');
    }
}

/// Appends `value` as JSON (the types written here always serialise).
pub fn write_json<T: Serialize + ?Sized>(buf: &mut Vec<u8>, value: &T) {
    if let Err(err) = serde_json::to_writer(&mut *buf, value) {
        // Only a map with non-string keys can fail; none of the state has one.
        tracing::error!(%err, "cannot serialise part of a message");
        buf.extend_from_slice(b"null");
    }
}

/// Turns JSON written by [`write_json`] into a text frame.
pub fn into_text(buf: Vec<u8>) -> axum::extract::ws::Utf8Bytes {
    match String::from_utf8(buf) {
        Ok(text) => text.into(),
        // serde_json writes UTF-8 only; this cannot happen.
        Err(err) => {
            tracing::error!(%err, "message is not UTF-8");
            axum::extract::ws::Utf8Bytes::from_static("{}")
        }
    }
}
