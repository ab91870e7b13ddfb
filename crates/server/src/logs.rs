//! The node's name on every log line in cluster mode, so that the logs of several nodes gathered in one
//! place say which node wrote what (a span would not follow every spawned task; the formatter sees all).

use std::fmt;

use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// Wraps a line format: `node=NAME ` before a text line, a `"node"` field first in a JSON object.
pub struct NodeNamed<F> {
    inner: F,
    name: String,
    json: bool,
}

impl<F> NodeNamed<F> {
    /// Text lines (`json: false`) or JSON objects (`json: true`) naming the node `name`.
    pub fn new(inner: F, name: String, json: bool) -> Self {
        NodeNamed { inner, name, json }
    }
}

impl<S, N, F> FormatEvent<S, N> for NodeNamed<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        if !self.json {
            write!(writer, "node={} ", self.name)?;
            return self.inner.format_event(ctx, writer, event);
        }
        let mut line = String::new();
        self.inner
            .format_event(ctx, Writer::new(&mut line), event)?;
        match line.strip_prefix('{') {
            Some(rest) => {
                let name = serde_json::to_string(&self.name).map_err(|_| fmt::Error)?;
                write!(writer, "{{\"node\":{name},{rest}")
            }
            None => writer.write_str(&line),
        }
    }
}
