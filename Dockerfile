# loom API / worker image. The same image runs both (docker-compose.yml picks the command):
#   API     node_modules/.bin/tsx api/server.ts      (after node_modules/.bin/tsx scripts/migrate.ts)
#   worker  node_modules/.bin/tsx worker/main.ts
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

COPY . .
# .data holds local state (e.g. LanceDB vectors); compose mounts a volume there
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node

EXPOSE 3000
CMD ["node_modules/.bin/tsx", "api/server.ts"]
