# Stand-in for postgres:16 where no image registry is reachable (docker/check-compose.sh): Debian's
# PostgreSQL (15 in bookworm) with what docker/docker-compose.yml relies on in the official image: the
# POSTGRES_PASSWORD, POSTGRES_USER and POSTGRES_DB variables (a database made at the first start),
# PGDATA=/var/lib/postgresql/data (the volume), port 5432, pg_isready on the PATH, SIGINT to stop.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
# No cluster of Debian's own: the entry point makes one in $PGDATA, as the official image does.
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
HEALTHCHECK --interval=5s --timeout=3s --retries=20 CMD ["pg_isready", "-h", "127.0.0.1"]
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
