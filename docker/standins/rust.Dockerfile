# Stand-in for rust:1-slim-bookworm where no image registry is reachable (docker/check-compose.sh):
# Debian with gcc, libc6-dev and ca-certificates, as in the official image, and the host's own Rust
# toolchain (the context's toolchain/, copied there by the check) in place of rustup's.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY toolchain /usr/local/rust
ENV CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN mkdir -p /usr/local/cargo/bin && rustc --version && cargo --version
