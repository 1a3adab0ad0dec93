# Multi-stage image of the host (API + built web app). Runs as a non-root user.
# Build: docker build -t zhzy .   Run: see docker-compose.yml and the README's production section.

FROM node:22-bookworm AS build
WORKDIR /app
# Native modules (better-sqlite3) build from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/scan-agent/package.json apps/scan-agent/
COPY packages/contracts/package.json packages/contracts/
COPY packages/api-client/package.json packages/api-client/
COPY packages/answer-card/package.json packages/answer-card/
RUN npm ci
COPY . .
RUN npx turbo run build --filter=@zhzy/web

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
# postgresql-client: pg_dump/pg_restore for `npm run backup|restore` (major 15: use the postgres:15 server image).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk poppler-utils postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system zhzy && useradd --system --gid zhzy --home /app zhzy && mkdir -p /data && chown zhzy:zhzy /data
COPY --from=build --chown=zhzy:zhzy /app /app
USER zhzy
EXPOSE 3000
VOLUME ["/data"]
# SIGTERM drains requests and jobs (SHUTDOWN_TIMEOUT_SECONDS) before the process exits.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]
