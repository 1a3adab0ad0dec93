# Multi-stage image of the host (API + built web app). Runs as a non-root user.
# Build: docker build -t zhzy .   Run: docker run -p 3000:3000 -e DATABASE_URL=postgres://… zhzy

FROM node:20-bookworm AS build
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

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk poppler-utils && rm -rf /var/lib/apt/lists/* \
  && groupadd --system zhzy && useradd --system --gid zhzy --home /app zhzy && mkdir -p /data && chown zhzy:zhzy /data
COPY --from=build --chown=zhzy:zhzy /app /app
USER zhzy
EXPOSE 3000
VOLUME ["/data"]
CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]
