//! Requests hyper cannot parse, answered with the documented JSON error.
//!
//! hyper answers a request line or headers it cannot read itself, before any route sees the request: a
//! bare status line with an empty body (`400`, `414`, `431`; see hyper's `Server::on_error`), without
//! the `{code, message}` body or the security headers of every other answer. hyper has no hook for that
//! answer, so the connection's writer recognises it (a head alone, a 4xx status, none of the headers
//! every answer of the application carries) and writes the JSON error in its place.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;

use crate::AppError;

/// An answer the server writes itself, outside the router: the JSON error with the headers every
/// answer carries, and the connection closed after it.
pub(super) fn json_answer(error: &AppError, extra_headers: &str) -> String {
    let body =
        serde_json::json!({ "code": error.code(), "message": error.to_string() }).to_string();
    format!(
        "HTTP/1.1 {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra_headers}\
         x-content-type-options: nosniff\r\nx-frame-options: DENY\r\n\
         cache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        error.status(),
        body.len()
    )
}

/// The JSON answer to write instead of `written` if `written` is hyper's own answer to a request it
/// could not parse.
fn replacement(written: &[u8]) -> Option<Vec<u8>> {
    let error = if written.starts_with(b"HTTP/1.1 400 ") {
        AppError::MalformedRequest
    } else if written.starts_with(b"HTTP/1.1 414 ") {
        AppError::UriTooLong
    } else if written.starts_with(b"HTTP/1.1 431 ") {
        AppError::HeadersTooLarge
    } else {
        return None;
    };
    // hyper writes its answer in one piece: a head and no body.
    let head_end = written.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if head_end != written.len() {
        return None;
    }
    let head = String::from_utf8_lossy(written).to_ascii_lowercase();
    if head.contains("x-content-type-options") || !head.contains("content-length: 0\r\n") {
        return None; // the application's own answer (it always carries nosniff)
    }
    Some(json_answer(&error, "").into_bytes())
}

/// The writer's state for [`Rewriting::poll_write`].
#[derive(Default)]
pub(super) struct Rewriting {
    /// The JSON answer being written in place of hyper's, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl Rewriting {
    /// Writes `buf` to `stream`, or the JSON answer in its place if `buf` is hyper's bare parse-error
    /// answer. hyper is told all of `buf` was written once the whole replacement is (it calls again with
    /// the same `buf` after `Pending`).
    pub(super) fn poll_write<S: AsyncWrite + Unpin>(
        &mut self,
        stream: &mut S,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none() {
            match replacement(buf) {
                Some(answer) => {
                    metrics::counter!("parchis_unparsable_requests_total").increment(1);
                    self.pending = Some((answer, 0));
                }
                None => return Pin::new(stream).poll_write(cx, buf),
            }
        }
        let Some((answer, written)) = self.pending.as_mut() else {
            return Pin::new(stream).poll_write(cx, buf);
        };
        while *written < answer.len() {
            match Pin::new(&mut *stream).poll_write(cx, &answer[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.pending = None;
        Poll::Ready(Ok(buf.len()))
    }

    /// Whether `bufs` (a vectored write) must go through [`Rewriting::poll_write`]: hyper's parse-error
    /// answer is one slice.
    pub(super) fn takes(&self, bufs: &[io::IoSlice<'_>]) -> bool {
        self.pending.is_some()
            || (bufs.iter().filter(|b| !b.is_empty()).count() == 1
                && bufs.iter().any(|b| replacement(b).is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_bare_answers_are_replaced_and_the_applications_are_not() {
        let bare =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(replacement(bare).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        assert!(
            answer.contains("\"code\":\"headers_too_large\""),
            "{answer}"
        );
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nx-content-type-options: nosniff\r\n\r\n";
        assert!(replacement(ours).is_none());
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}";
        assert!(replacement(with_body).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
