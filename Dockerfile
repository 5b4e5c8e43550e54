# syntax=docker/dockerfile:1.7
# One image per app, from this one file:
#   docker build --build-arg APP=portal  -t <registry>/portal:<version>  .
#   docker build --build-arg APP=landing -t <registry>/landing:<version> .
#   docker build --build-arg APP=worker  -t <registry>/worker:<version>  .
# tooling/release/test/images.test.ts runs the RUN steps below without Docker (it reads them
# from this file), so keep each step a single command.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
# pnpm at the version package.json pins (packageManager), fetched by npm with its integrity.
COPY package.json /tmp/root-package.json
RUN npm install --global "$(node -p "require('/tmp/root-package.json').packageManager")"
ENV CI=true TURBO_TELEMETRY_DISABLED=1
WORKDIR /repo

# 1. Prune: the app, the workspace packages it uses, the lockfile cut to them.
FROM base AS prune
ARG APP
# The catalog's turbo version (the test checks they match).
ARG TURBO_VERSION=2.11.11
RUN npm install --global "turbo@${TURBO_VERSION}"
COPY . .
RUN turbo prune "@erp/${APP}" --docker --out-dir /out

# 2. Build: install from the pruned manifests first (cached until a manifest or the lockfile
#    changes), then the sources, the bundle, and the production-only deployment. The build
#    takes the app and the other apps it is built from (`...`, packages left out: they are
#    bundled from source): the portal's image ships the console, which its build copies.
FROM base AS build
ARG APP
COPY --from=prune /out/json/ ./
COPY --from=prune /out/pnpm-lock.yaml ./pnpm-lock.yaml
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile --store-dir /pnpm/store
COPY --from=prune /out/full/ ./
RUN pnpm --filter "@erp/${APP}..." --filter "!./packages/**" build
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm --filter "@erp/${APP}" deploy --prod --legacy --store-dir /pnpm/store /prod/app

# 3. Runtime: package.json, dist/ and production dependencies only; no pnpm, no sources.
FROM ${NODE_IMAGE} AS runtime
ARG APP
# Each app reads its own: the portal's and landing's metrics listeners, the worker's health port.
ENV NODE_ENV=production APP=${APP} WORKER_HEALTH_PORT=3002 PORTAL_METRICS_PORT=9464 LANDING_METRICS_PORT=9464
WORKDIR /app
COPY --from=build /prod/app/ ./
COPY deploy/image/healthcheck.mjs ./healthcheck.mjs
USER node
EXPOSE 3000 3001 3002 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["node", "healthcheck.mjs"]
CMD ["node", "dist/main.js"]
