# Stand-in for nats:2 where no image registry is reachable (docker/check-compose.sh): Debian's
# nats-server (2.9 in bookworm), started as the official image starts it: client port 4222, monitoring
# port 8222 (its /healthz is the health check), routes 6222; arguments as the official image's.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nats-server \
 && rm -rf /var/lib/apt/lists/*
EXPOSE 4222 6222 8222
ENTRYPOINT ["/usr/sbin/nats-server"]
CMD ["--port", "4222", "--http_port", "8222", "--cluster", "nats://0.0.0.0:6222"]
