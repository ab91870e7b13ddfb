# Stand-in for nginx:1 where no image registry is reachable (docker/check-compose.sh): Debian's nginx
# with the official image's layout: /etc/nginx/conf.d/*.conf included in http {}, no default site,
# nginx in the foreground, SIGQUIT to stop (a graceful stop).
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
