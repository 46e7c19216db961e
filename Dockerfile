# syntax=docker/dockerfile:1
# skillshelf's container image. The build stage compiles the sources and installs the app with
# deploy/container/install-app.sh, the same script test/deploy/container.test.ts runs outside a container;
# the runtime stage holds Node 20, git (for git sources), tini, the app and its production dependencies.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json config.schema.json README.md ./
COPY src ./src
COPY deploy/container ./deploy/container
RUN npm run build && sh deploy/container/install-app.sh /src /opt/skillshelf

FROM ${NODE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 skillshelf \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin skillshelf \
 && mkdir -p /etc/skillshelf /var/cache/skillshelf \
 && chown 10001:10001 /var/cache/skillshelf \
 && chmod 0700 /var/cache/skillshelf
COPY --from=build /opt/skillshelf /opt/skillshelf
ENV NODE_ENV=production \
    SKILLSHELF_CONFIG=/etc/skillshelf/config.yaml \
    SKILLSHELF_CACHE_DIR=/var/cache/skillshelf \
    SKILLSHELF_HOST=0.0.0.0 \
    SKILLSHELF_ALLOW_ANY_HOST=true \
    SKILLSHELF_PORT=8000
VOLUME ["/var/cache/skillshelf"]
EXPOSE 8000
USER 10001:10001
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/opt/skillshelf/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/opt/skillshelf/dist/cli.js"]
CMD ["serve"]
