# loom API / worker image. The same image runs both (docker-compose.yml picks the command), as the compiled
# JavaScript of `npm run build` (no TypeScript transform at run time):
#   API     node dist/api/server.js      (after node dist/scripts/migrate.js latest)
#   worker  node dist/worker/main.js
# NODE_ENV=production: start-up requires SERVICE_JWT_SECRET, SERVICE_ENCRYPTION_KEY and non-default MINIO_* credentials.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    SERVICE_HOST=0.0.0.0 \
    SERVICE_PORT=3000
WORKDIR /app

# dependencies first, so source edits do not reinstall them
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# the sources stay beside the build (docs, examples, the tsx scripts of npm run admin)
COPY . .
COPY --from=build /app/dist ./dist
# the offline semantic embedder's word vectors, in the binary form every process reads (built once, here)
RUN node dist/scripts/build-word-vectors.js
# .data holds local state (e.g. LanceDB vectors); compose mounts a volume there
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node

EXPOSE 3000
CMD ["node", "dist/api/server.js"]
